/**
 * The built-in platform tools of PLATFORM.md §6 that run on the server: `platform_bash`
 * (the conversation's simulated shell, with held outputs), `platform_deliver`,
 * `platform_view_image` and `web_search`. The run engine answers `platform_tool_search`
 * itself; skills tools are not part of this module.
 */
import { posix } from "node:path";
import {
  type Deliverable,
  platformTools,
  type ResolvedTool,
  type RunState,
  type ToolCallInput,
  type ToolDefinition,
  type ToolResult,
} from "@groundwork/agents";
import type { MaybePromise, Principal } from "@groundwork/core";
import type { FileService } from "../files/file-service.js";
import {
  DEFAULT_PRIVATE_NETWORK_SETTING,
  guardedFetch,
  privateAddressOf,
  refusedAddressOf,
} from "../network/guarded-network.js";
import type { PlatformStore } from "../store-port.js";
import {
  BASH_LIMITS,
  type BashResult,
  BashTreeCache,
  runBash,
  type SkillFiles,
  WORKSPACE,
} from "./bash-sandbox.js";
import { imageInfo } from "./image-info.js";

/** The failure of a `web_search` call without a provider; the server names GROUNDWORK_WEB_SEARCH_URL. */
export function webSearchUnavailable(setting = "GROUNDWORK_WEB_SEARCH_URL"): string {
  return `web_search is not available: no search provider is configured (${setting})`;
}
export const MAX_IMAGE_BYTES = 20 * 1024 * 1024;
export const IMAGE_FETCH_TIMEOUT_MS = 10_000;
export const WEB_SEARCH_TIMEOUT_MS = 10_000;
export const MAX_DELIVERED_FILES = 20;
export const MAX_DELIVERED_TEXT_BYTES = 1024 * 1024;

export interface WebSearchConfig {
  url: string;
  apiKey: string | null;
}

export interface PlatformToolOptions {
  /** The search provider; null: `web_search` is not offered. */
  webSearch: WebSearchConfig | null;
  allowPrivateNetwork: boolean;
  allowPrivateNetworkSetting?: string;
  /** How the unavailable-search failure names the setting (default `GROUNDWORK_WEB_SEARCH_URL`). */
  webSearchSetting?: string;
  /** Replaces the guarded transport for `view_image` URLs and the search provider (tests). */
  fetch?: typeof fetch;
  /** Whether a model takes image input; every model does unless this says otherwise. */
  acceptsImages?: (model: string) => boolean;
  /** The read-only `/skills/<qualifiedName>/` copies of a run (filled by the skills group). */
  skillFiles?: (principal: Principal, state: RunState) => MaybePromise<readonly SkillFiles[]>;
}

type BashDefinition = Extract<ToolDefinition, { type: "platform.bash" }>;

class ToolFailure extends Error {}

function fail(message: string): never {
  throw new ToolFailure(message);
}

function parseArgs(raw: string): Record<string, unknown> {
  if (raw.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    fail("the arguments must be a JSON object");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    fail("the arguments must be a JSON object");
  }
  return value as Record<string, unknown>;
}

function optionalString(args: Record<string, unknown>, name: string): string | undefined {
  const value = args[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") fail(`the argument "${name}" must be a string`);
  return value;
}

function optionalStrings(args: Record<string, unknown>, name: string): string[] {
  const value = args[name];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.some((v) => typeof v !== "string" || v === "")) {
    fail(`the argument "${name}" must be an array of non-empty strings`);
  }
  return value as string[];
}

function optionalCount(args: Record<string, unknown>, name: string, fallback: number): number {
  const value = args[name];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > 10) {
    fail(`the argument "${name}" must be an integer from 1 to 10`);
  }
  return value;
}

/** A bash path as an absolute path (relative ones from `/workspace`). */
export function bashPath(path: string): string {
  return posix.resolve(WORKSPACE, path);
}

function revisionKey(revision: { dataVersion: number; writes: number }): string {
  return `${revision.dataVersion}:${revision.writes}`;
}

export class PlatformToolRunner {
  /** The file systems of recent `platform_bash` calls, per conversation (PT13). */
  private readonly bashTrees = new BashTreeCache();

  constructor(
    private readonly store: PlatformStore,
    private readonly files: FileService,
    private readonly options: PlatformToolOptions,
  ) {}

  /** The implicit platform tools offered to every run (`platform_deliver`, `platform_view_image`, `web_search`). */
  implicitTools(): ResolvedTool[] {
    return platformTools({ webSearch: this.options.webSearch !== null });
  }

  /** Runs one of the platform tools; null when the tool is not one of them. */
  async execute(principal: Principal, call: ToolCallInput): Promise<ToolResult | null> {
    const type = call.tool.definition.type;
    if (
      type !== "platform.bash" &&
      type !== "platform.deliver" &&
      type !== "platform.view_image" &&
      type !== "web_search"
    ) {
      return null;
    }
    try {
      const args = parseArgs(call.arguments);
      switch (type) {
        case "platform.bash":
          return await this.bash(principal, call.tool.definition as BashDefinition, args, call);
        case "platform.deliver":
          return await this.deliver(principal, args, call);
        case "platform.view_image":
          return await this.viewImage(principal, args, call);
        default:
          return await this.webSearch(args, call);
      }
    } catch (error) {
      if (error instanceof ToolFailure) return { output: `The tool failed: ${error.message}`, failed: true };
      throw error;
    }
  }

  private async bash(
    principal: Principal,
    definition: BashDefinition,
    args: Record<string, unknown>,
    call: ToolCallInput,
  ): Promise<ToolResult> {
    const command = args.command;
    if (typeof command !== "string" || command.trim() === "") {
      fail('the argument "command" must be a non-empty string');
    }
    if (Buffer.byteLength(command, "utf8") > BASH_LIMITS.commandBytes) {
      fail(`the command is longer than ${BASH_LIMITS.commandBytes} bytes (16 KiB)`);
    }
    const org = principal.organizationId;
    const conversationId = call.state.conversationId;
    const bashFiles = this.store.bashFiles;
    if (definition.outputs === "held") {
      // The approval of a held call: its staged changes are committed and its output released.
      const held = (await bashFiles.commitStage(org, conversationId, call.callId)) as BashResult | null;
      if (held !== null) return { output: JSON.stringify(held) };
    }
    // Changes of held calls that were rejected (or timed out) are dropped here; calls of this
    // run still waiting for their approval keep theirs.
    await bashFiles.discardStages(conversationId, [
      call.callId,
      ...call.state.pendingApprovals.filter((p) => p.reason === "outputs_held").map((p) => p.callId),
    ]);
    const skills = (await this.options.skillFiles?.(principal, call.state)) ?? [];
    // The file system of the previous call is reused while the stored tree is unchanged (PT13).
    const before = await bashFiles.revision(conversationId);
    const run = await runBash(async () => await bashFiles.load(conversationId), command, {
      skills,
      cache: { trees: this.bashTrees, key: conversationId, revision: revisionKey(before) },
    });
    if (definition.outputs === "held") {
      await bashFiles.stage(org, conversationId, call.callId, run.changes, run.result);
      const { stdout, stderr, exitCode } = run.result;
      return { output: "", held: { stdout, stderr, exitCode } };
    }
    if (run.changes.length > 0) await bashFiles.apply(org, conversationId, run.changes);
    // Kept only when the stored tree is exactly the one this call started from plus its own
    // changes (no other connection committed, no other call of this process wrote it).
    const after = await bashFiles.revision(conversationId);
    const own = run.changes.length > 0 ? 1 : 0;
    if (after.dataVersion === before.dataVersion && after.writes === before.writes + own) {
      run.keep?.(revisionKey(after));
    }
    return { output: JSON.stringify(run.result) };
  }

  private async deliver(principal: Principal, args: Record<string, unknown>, call: ToolCallInput) {
    const text = optionalString(args, "text");
    const title = optionalString(args, "title");
    const fileIds = optionalStrings(args, "fileIds");
    const paths = optionalStrings(args, "paths");
    if ((text === undefined || text === "") && fileIds.length === 0 && paths.length === 0) {
      fail("give at least one of text, fileIds or paths");
    }
    const earlier = call.state.deliverables ?? [];
    const filesSoFar = earlier.filter((d) => d.type === "file").length;
    if (filesSoFar + fileIds.length + paths.length > MAX_DELIVERED_FILES) {
      fail(`at most ${MAX_DELIVERED_FILES} files can be delivered per response (${filesSoFar} so far)`);
    }
    const textSoFar = earlier.reduce(
      (sum, d) => sum + (d.type === "text" ? Buffer.byteLength(d.text, "utf8") : 0),
      0,
    );
    if (text !== undefined && textSoFar + Buffer.byteLength(text, "utf8") > MAX_DELIVERED_TEXT_BYTES) {
      fail("at most 1 MiB of text can be delivered per response");
    }
    const org = principal.organizationId;
    // Everything is checked before anything is stored.
    const known = await Promise.all(
      fileIds.map(async (id) => {
        const file = await this.store.files.get(org, id);
        if (file === null || file.deletedAt !== null) fail(`unknown fileId ${id}`);
        return file;
      }),
    );
    const tree = paths.length === 0 ? new Map() : await this.store.bashFiles.load(call.state.conversationId);
    const fromBash = paths.map((path) => {
      const absolute = bashPath(path);
      const bytes = tree.get(absolute);
      if (bytes === undefined) fail(`no file ${absolute} in the bash file system`);
      if (bytes === null) fail(`${absolute} is a directory`);
      if (bytes.length === 0) fail(`${absolute} is empty`);
      return { absolute, bytes: bytes as Uint8Array };
    });
    const deliverables: Deliverable[] = [];
    if (text !== undefined && text !== "") deliverables.push({ type: "text", title: title ?? null, text });
    for (const file of known) {
      deliverables.push({
        type: "file",
        fileId: file.id,
        filename: file.filename,
        mime: file.mime,
        size: file.byteSize,
      });
    }
    for (const { absolute, bytes } of fromBash) {
      const file = await this.files.upload(principal, {
        filename: posix.basename(absolute),
        purpose: "assistants",
        content: bytes,
      });
      deliverables.push({
        type: "file",
        fileId: file.id,
        filename: file.filename,
        mime: file.mime,
        size: file.byteSize,
      });
    }
    return { output: JSON.stringify({ delivered: deliverables.length }), deliverables };
  }

  private async viewImage(principal: Principal, args: Record<string, unknown>, call: ToolCallInput) {
    const fileId = optionalString(args, "fileId");
    const url = optionalString(args, "url");
    const path = optionalString(args, "path");
    const given = [fileId, url, path].filter((v) => v !== undefined && v !== "");
    if (given.length !== 1) fail("give exactly one of fileId, url or path");
    if (this.options.acceptsImages?.(call.state.model) === false) fail("model does not accept images");
    let bytes: Uint8Array;
    if (fileId !== undefined && fileId !== "") {
      const file = await this.store.files.get(principal.organizationId, fileId);
      const content =
        file === null || file.deletedAt !== null
          ? null
          : await this.store.files.content(file.organizationId, file.id);
      if (content === null) fail(`unknown fileId ${fileId}`);
      bytes = content;
    } else if (url !== undefined && url !== "") {
      bytes = await this.fetchImage(url, call.signal);
    } else {
      const absolute = bashPath(path as string);
      const found = (await this.store.bashFiles.load(call.state.conversationId)).get(absolute);
      if (found === undefined) fail(`no file ${absolute} in the bash file system`);
      if (found === null) fail(`${absolute} is a directory`);
      bytes = found;
    }
    if (bytes.length > MAX_IMAGE_BYTES) fail("the image is larger than 20 MiB");
    const info = imageInfo(bytes);
    if (info === null) fail("not an image: png, jpeg, gif and webp can be viewed");
    return {
      output: `Image attached (${info.mime}, ${info.width}×${info.height})`,
      images: [{ mime: info.mime, url: `data:${info.mime};base64,${Buffer.from(bytes).toString("base64")}` }],
    };
  }

  private async fetchImage(raw: string, signal: AbortSignal | undefined): Promise<Uint8Array> {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      fail("url must be an absolute http(s) URL");
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") fail("url must be an http(s) URL");
    const setting = this.options.allowPrivateNetworkSetting ?? DEFAULT_PRIVATE_NETWORK_SETTING;
    const privateRefusal = `private_network: ${url.hostname} is a loopback, private or link-local address; refused unless ${setting}`;
    if (!this.options.allowPrivateNetwork) {
      let refused: string | undefined;
      try {
        refused = await privateAddressOf(url.hostname);
      } catch (error) {
        fail(`cannot resolve ${url.hostname}: ${error instanceof Error ? error.message : String(error)}`);
      }
      if (refused !== undefined) fail(privateRefusal);
    }
    const timeout = AbortSignal.timeout(IMAGE_FETCH_TIMEOUT_MS);
    const doFetch = this.options.fetch ?? guardedFetch(this.options.allowPrivateNetwork);
    let response: Response;
    try {
      // Redirects are not followed: each hop would need the private-network check.
      response = await doFetch(url, {
        signal: signal === undefined ? timeout : AbortSignal.any([timeout, signal]),
        redirect: "manual",
      });
    } catch (error) {
      if (timeout.aborted) fail(`the image did not arrive within ${IMAGE_FETCH_TIMEOUT_MS / 1000} s`);
      if (refusedAddressOf(error) !== undefined) fail(privateRefusal);
      fail(`the image could not be fetched: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => {});
      fail(`the image URL answered HTTP ${response.status}`);
    }
    const declared = Number(response.headers.get("content-length") ?? "NaN");
    if (Number.isFinite(declared) && declared > MAX_IMAGE_BYTES) {
      await response.body?.cancel().catch(() => {});
      fail("the image is larger than 20 MiB");
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    try {
      for await (const chunk of response.body ?? []) {
        size += (chunk as Uint8Array).length;
        if (size > MAX_IMAGE_BYTES) fail("the image is larger than 20 MiB");
        chunks.push(chunk as Uint8Array);
      }
    } catch (error) {
      if (error instanceof ToolFailure) throw error;
      if (timeout.aborted) fail(`the image did not arrive within ${IMAGE_FETCH_TIMEOUT_MS / 1000} s`);
      throw error;
    }
    return new Uint8Array(Buffer.concat(chunks));
  }

  private async webSearch(args: Record<string, unknown>, call: ToolCallInput): Promise<ToolResult> {
    const config = this.options.webSearch;
    if (config === null) return { output: webSearchUnavailable(this.options.webSearchSetting), failed: true };
    const query = args.query;
    if (typeof query !== "string" || query.trim() === "")
      fail('the argument "query" must be a non-empty string');
    const count = optionalCount(args, "count", 5);
    const url = new URL(config.url);
    url.searchParams.set("q", query);
    url.searchParams.set("count", String(count));
    const timeout = AbortSignal.timeout(WEB_SEARCH_TIMEOUT_MS);
    const doFetch = this.options.fetch ?? fetch;
    let response: Response;
    try {
      response = await doFetch(url, {
        headers: {
          accept: "application/json",
          ...(config.apiKey === null ? {} : { authorization: `Bearer ${config.apiKey}` }),
        },
        signal: call.signal === undefined ? timeout : AbortSignal.any([timeout, call.signal]),
      });
    } catch {
      // The provider's error text is not passed on: nothing of the request (its key) can leak.
      fail(
        timeout.aborted
          ? `the search provider did not answer within ${WEB_SEARCH_TIMEOUT_MS / 1000} s`
          : "the search provider could not be reached",
      );
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => {});
      fail(`the search provider answered HTTP ${response.status}`);
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      fail("the search provider's answer is not JSON");
    }
    const results = (body as { results?: unknown } | null)?.results;
    if (!Array.isArray(results)) fail("the search provider's answer has no results array");
    const str = (v: unknown) => (typeof v === "string" ? v : "");
    const out = results
      .filter((r): r is Record<string, unknown> => typeof r === "object" && r !== null)
      .map((r) => ({ title: str(r.title), url: str(r.url), snippet: str(r.snippet) }))
      .filter((r) => r.url !== "" || r.title !== "")
      .slice(0, count);
    const output = JSON.stringify(out);
    // A provider that echoes the key never passes it on.
    return {
      output:
        config.apiKey === null || config.apiKey === ""
          ? output
          : output.replaceAll(config.apiKey, "[redacted]"),
    };
  }
}
