/**
 * Hono's router with its answers remembered per method and path (HP51). The app's routes make
 * Hono's SmartRouter settle on the TrieRouter, which splits the path and walks the tree on
 * every request (about 0.6 % of a gateway call); a gateway sees the same few paths over and
 * over. A match depends only on the method, the path and the routes added, and Hono reads a
 * match without changing it (its RegExpRouter hands out shared answers for static paths), so a
 * remembered answer is the same answer. At most `limit` paths are kept per method; when that is
 * reached the memory starts over (paths carrying ids would otherwise grow it without bound).
 */
import type { Result, Router } from "hono/router";
import { RegExpRouter } from "hono/router/reg-exp-router";
import { SmartRouter } from "hono/router/smart-router";
import { TrieRouter } from "hono/router/trie-router";

export class MemoRouter<T> implements Router<T> {
  private readonly memory = new Map<string, Map<string, Result<T>>>();

  constructor(
    private readonly inner: Router<T> = new SmartRouter<T>({
      routers: [new RegExpRouter<T>(), new TrieRouter<T>()],
    }),
    private readonly limit = 1_000,
  ) {}

  get name(): string {
    return `MemoRouter + ${this.inner.name}`;
  }

  add(method: string, path: string, handler: T): void {
    this.memory.clear();
    this.inner.add(method, path, handler);
  }

  match(method: string, path: string): Result<T> {
    let paths = this.memory.get(method);
    if (paths === undefined) {
      paths = new Map();
      this.memory.set(method, paths);
    }
    let result = paths.get(path);
    if (result === undefined) {
      result = this.inner.match(method, path);
      if (paths.size >= this.limit) paths.clear();
      paths.set(path, result);
    }
    return result;
  }
}
