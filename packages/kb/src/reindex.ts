/**
 * Background reindex after a text-search language change: builds keyword rows
 * for the pending language beside the active ones, then switches in one step
 * (search answers from the old language until then, never a mix). A PATCH
 * that cancels the change (the active language sent while another is pending)
 * or picks yet another language makes this run stop without switching.
 */
import type { MaybePromise } from "@groundwork/core";
import type { TextSearchLanguage } from "./text-analysis.js";
import { indexTerms } from "./text-analysis.js";

/** Storage of a reindex (implemented by store-sqlite next to the keyword index). */
export interface ReindexStore {
  pendingLanguage(knowledgeBaseId: string): MaybePromise<TextSearchLanguage | null>;
  /** Indexed chunks of live serving revisions with rowid greater than `after`, in rowid order. */
  chunkBatch(
    knowledgeBaseId: string,
    after: number,
    limit: number,
  ): MaybePromise<Array<{ seq: number; chunkId: string; text: string }>>;
  /** Writes rows of `language` only while it is still the pending target; false otherwise. */
  addTerms(
    knowledgeBaseId: string,
    language: TextSearchLanguage,
    entries: ReadonlyArray<{ chunkId: string; terms: string }>,
  ): MaybePromise<boolean>;
  /** Makes `language` active and drops the other language's rows, if it is still pending; false otherwise. */
  finish(knowledgeBaseId: string, language: TextSearchLanguage): MaybePromise<boolean>;
}

export type ReindexOutcome = { status: "switched"; chunks: number } | { status: "canceled" };

export async function runReindex(
  store: ReindexStore,
  knowledgeBaseId: string,
  language: TextSearchLanguage,
  options: { signal?: AbortSignal; batchSize?: number } = {},
): Promise<ReindexOutcome> {
  const batchSize = options.batchSize ?? 500;
  let after = 0;
  let count = 0;
  for (;;) {
    options.signal?.throwIfAborted();
    if ((await store.pendingLanguage(knowledgeBaseId)) !== language) return { status: "canceled" };
    const batch = await store.chunkBatch(knowledgeBaseId, after, batchSize);
    if (batch.length === 0) break;
    const ok = await store.addTerms(
      knowledgeBaseId,
      language,
      batch.map((chunk) => ({ chunkId: chunk.chunkId, terms: indexTerms(chunk.text, language) })),
    );
    if (!ok) return { status: "canceled" };
    count += batch.length;
    after = batch.at(-1)?.seq ?? after;
  }
  return (await store.finish(knowledgeBaseId, language))
    ? { status: "switched", chunks: count }
    : { status: "canceled" };
}
