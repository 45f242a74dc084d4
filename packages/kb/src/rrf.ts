/**
 * Reciprocal rank fusion (Cormack, Clarke & Büttcher, SIGIR 2009): every ranked
 * list contributes 1 / (k + rank) to each item it holds, rank counted from 1.
 * Only ranks matter, so BM25 scores and cosine similarities need no
 * normalisation, and an item both legs found rises above items only one found.
 */
import { RRF_K } from "./config.js";

export interface FusedItem {
  id: string;
  score: number;
  /** 1-based rank in each list that held the item (undefined where it was absent). */
  ranks: Array<number | undefined>;
}

export function reciprocalRankFusion(
  lists: ReadonlyArray<readonly string[]>,
  k: number = RRF_K,
): FusedItem[] {
  const items = new Map<string, FusedItem>();
  lists.forEach((list, listIndex) => {
    const seen = new Set<string>();
    list.forEach((id, index) => {
      if (seen.has(id)) return; // a list counts an item once, at its best rank
      seen.add(id);
      let item = items.get(id);
      if (item === undefined) {
        item = { id, score: 0, ranks: new Array<number | undefined>(lists.length).fill(undefined) };
        items.set(id, item);
      }
      item.score += 1 / (k + index + 1);
      item.ranks[listIndex] = index + 1;
    });
  });
  // Ties (same score) keep a stable order: the better best rank first, then the id.
  return [...items.values()].sort(
    (a, b) => b.score - a.score || bestRank(a) - bestRank(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}

function bestRank(item: FusedItem): number {
  return Math.min(...item.ranks.map((rank) => rank ?? Number.POSITIVE_INFINITY));
}
