import { bm25Idf, bm25Term, keywordPhrases, keywordTokens } from "@groundwork/kb";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { knowledgeBaseConfig } from "../test/knowledge-base-fixture.js";
import { SqliteKeywordIndex, searchFts5 } from "./kb-keyword-index.js";
import { openStore } from "./open-store.js";

const WORDS = ["ant", "bee", "cat", "dog", "eel", "fox", "gnu", "hen"];
const word = fc.integer({ min: 0, max: 63 }).map((n) => WORDS[Math.floor(Math.sqrt(n))] as string);
const text = fc.array(word, { minLength: 1, maxLength: 10 }).map((words) => words.join(" "));

/** One step on the knowledge base: a document (re)uploaded and served, one deleted, or a search. */
const step = fc.oneof(
  fc.record({
    kind: fc.constant("serve" as const),
    name: fc.constantFrom("a", "b", "c", "d"),
    texts: fc.array(text, { minLength: 1, maxLength: 12 }),
  }),
  fc.record({ kind: fc.constant("delete" as const), name: fc.constantFrom("a", "b", "c", "d") }),
  fc.record({
    kind: fc.constant("search" as const),
    terms: fc.uniqueArray(fc.oneof(word, fc.constant("zzz")), { minLength: 1, maxLength: 4 }),
    k: fc.integer({ min: 1, max: 8 }),
    only: fc.option(fc.constantFrom("a", "b", "c", "d")),
  }),
);

describe("keyword search over in-memory postings", () => {
  it("ranks as exact BM25 over the knowledge base's served rows, across switches and deletions", () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 14 }), (steps) => {
        const store = openStore({ file: ":memory:" });
        const org = store.organizations.create("acme", "enterprise");
        const kb = store.knowledgeBases.create(org.id, knowledgeBaseConfig("kb"));
        // Another knowledge base's rows share the FTS5 table and must not move the statistics.
        const other = store.knowledgeBases.create(org.id, knowledgeBaseConfig("other"));
        const upload = (knowledgeBase: typeof kb, name: string) =>
          store.knowledgeBases.acceptUpload({
            knowledgeBase,
            filename: name,
            mime: "text/plain",
            bytes: new TextEncoder().encode(name),
            metadata: {},
            apiKeyId: null,
          });
        const write = (knowledgeBase: typeof kb, name: string, texts: string[]) => {
          const { revision, document } = upload(knowledgeBase, name);
          const chunks = store.knowledgeBases.replaceChunks(
            revision.id,
            texts.map((t, position) => ({
              kind: "fixed" as const,
              parentPosition: null,
              position,
              text: t,
              tokenCount: 3,
              pageStart: null,
              pageEnd: null,
              headingPath: [],
            })),
          );
          store.kbKeywords.add(
            knowledgeBase.id,
            "simple",
            chunks.map((chunk) => ({ chunkId: chunk.id, terms: chunk.text ?? "" })),
          );
          store.knowledgeBases.activateRevision(revision.id);
          return { document: document.id, chunks };
        };
        write(other, "x", ["ant ant bee", "cat dog dog dog", "hen"]);
        // Ties rank by chunk seq (FTS5's rowid order), which the chunk record does not carry.
        const seqOf = {
          get: (id: string) => store.db.prepare("SELECT seq FROM kb_chunks WHERE id = ?").pluck().get(id),
        };
        const served = new Map<
          string,
          { document: string; rows: Array<{ id: string; seq: number; text: string }> }
        >();
        for (const s of steps) {
          if (s.kind === "serve") {
            const { document, chunks } = write(kb, s.name, s.texts);
            served.set(s.name, {
              document,
              rows: chunks.map((chunk) => ({
                id: chunk.id,
                seq: seqOf.get(chunk.id) as number,
                text: chunk.text ?? "",
              })),
            });
          } else if (s.kind === "delete") {
            const held = served.get(s.name);
            if (held === undefined) continue;
            store.knowledgeBases.deleteDocument(kb.id, held.document);
            served.delete(s.name);
          } else {
            const allowed = s.only === null ? null : (served.get(s.only)?.document ?? "none");
            const rows = [...served.values()].flatMap((held) =>
              held.rows.map((row) => ({ ...row, document: held.document })),
            );
            const expected = exactBm25(rows, s.terms, s.k, allowed);
            const query = {
              knowledgeBaseId: kb.id,
              k: s.k,
              documentIds: allowed === null ? null : [allowed],
              language: "simple" as const,
              terms: s.terms,
            };
            expect(store.kbKeywords.search(query)).toEqual(expected);
            // A cold start here (another process, a restart) loads the same from the keyword packs.
            expect(new SqliteKeywordIndex(store.db).search(query)).toEqual(expected);
            // FTS5 (whole-table statistics) finds the same rows; only the order may differ.
            expect(new Set(searchFts5(store.db, { ...query, k: 1000 }).map((hit) => hit.chunkId))).toEqual(
              new Set(exactBm25(rows, s.terms, 1000, allowed).map((hit) => hit.chunkId)),
            );
          }
        }
        store.close();
      }),
      { numRuns: 60 },
    );
  });
});

function exactBm25(
  rows: Array<{ id: string; seq: number; text: string; document: string }>,
  terms: string[],
  k: number,
  document: string | null,
) {
  if (rows.length === 0) return [];
  const tokens = rows.map((row) => keywordTokens(row.text));
  const average = tokens.reduce((sum, list) => sum + list.length, 0) / rows.length;
  const phrases = keywordPhrases(terms);
  const frequency = new Map(phrases.map((p) => [p, tokens.filter((list) => list.includes(p)).length]));
  return rows
    .flatMap((row, i) => {
      if (document !== null && row.document !== document) return [];
      const own = tokens[i] as string[];
      let score = 0;
      let matched = false;
      for (const phrase of phrases) {
        const tf = own.filter((token) => token === phrase).length;
        if (tf === 0) continue;
        matched = true;
        score += bm25Term(bm25Idf(rows.length, frequency.get(phrase) ?? 0), tf, own.length, average);
      }
      return matched ? [{ chunkId: row.id, seq: row.seq, score }] : [];
    })
    .sort((a, b) => b.score - a.score || a.seq - b.seq)
    .slice(0, k)
    .map(({ chunkId, score }) => ({ chunkId, score }));
}
