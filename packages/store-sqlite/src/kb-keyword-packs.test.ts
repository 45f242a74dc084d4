import { describe, expect, it } from "vitest";
import { knowledgeBaseConfig, writeDocument } from "../test/knowledge-base-fixture.js";
import { SqliteKeywordIndex } from "./kb-keyword-index.js";
import { openStore } from "./open-store.js";

const WORDS = ["ant", "bee", "cat", "dog", "eel", "fox", "gnu", "hen", "straße", "日本"];

function setup() {
  const store = openStore({ file: ":memory:" });
  const org = store.organizations.create("acme", "enterprise");
  const kb = store.knowledgeBases.create(org.id, knowledgeBaseConfig("kb"));
  let state = 7;
  const pick = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return WORDS[state % WORDS.length] as string;
  };
  const line = () => Array.from({ length: 3 + (state % 9) }, pick).join(" ");
  const write = (name: string, rows: number) => {
    const written = writeDocument(store, kb, name, Array.from({ length: rows }, line));
    store.kbKeywords.add(
      kb.id,
      "simple",
      written.chunks.map((chunk) => ({ chunkId: chunk.id, terms: chunk.text ?? "" })),
    );
    return written;
  };
  const packs = () =>
    store.db
      .prepare("SELECT revision_id, language, row_count FROM kb_keyword_packs ORDER BY revision_id")
      .all() as Array<{ revision_id: string; language: string; row_count: number }>;
  const queries = () =>
    Array.from({ length: 12 }, (_, i) => ({
      knowledgeBaseId: kb.id,
      k: 1 + (i % 7),
      documentIds: null,
      language: "simple" as const,
      terms: [pick(), pick(), ...(i % 2 === 0 ? [pick()] : [])],
    }));
  /** Packs and tokenized rows answer every query the same, on fresh loads. */
  const agree = () => {
    for (const query of queries()) {
      const fromRows = new SqliteKeywordIndex(store.db, { packs: false }).search(query);
      expect(new SqliteKeywordIndex(store.db).search(query)).toEqual(fromRows);
      expect(store.kbKeywords.search(query)).toEqual(fromRows);
    }
  };
  return { store, kb, write, packs, agree };
}

describe("keyword packs (migration 31)", () => {
  it("are written when a revision is served, dropped with its rows, and load what the rows load", () => {
    const { store, kb, write, packs, agree } = setup();
    const a = write("a.txt", 150);
    const b = write("b.txt", 90);
    expect(packs()).toEqual([]); // nothing packed before the switch
    store.knowledgeBases.activateRevision(a.revision.id);
    store.knowledgeBases.activateRevision(b.revision.id);
    expect(packs().map((p) => [p.language, p.row_count])).toEqual(
      expect.arrayContaining([
        ["simple", 150],
        ["simple", 90],
      ]),
    );
    agree();

    // A new revision of a: its pack replaces the old one's, which goes with the old rows.
    const next = write("a.txt", 20);
    store.knowledgeBases.activateRevision(next.revision.id);
    expect(
      packs()
        .map((p) => p.revision_id)
        .sort(),
    ).toEqual([b.revision.id, next.revision.id].sort());
    agree();
    store.knowledgeBases.deleteDocument(kb.id, b.document.id);
    expect(packs().map((p) => p.revision_id)).toEqual([next.revision.id]);
    agree();
    store.knowledgeBases.softDelete(kb.organizationId, kb.id);
    expect(packs()).toEqual([]);
  });

  it("are dropped when rows of their revision are written again, and remade by the next load", () => {
    const { store, kb, write, packs, agree } = setup();
    const a = write("a.txt", 120);
    store.knowledgeBases.activateRevision(a.revision.id);
    expect(packs()).toHaveLength(1);
    // A late write to a served revision (a duplicate job): the pack no longer matches the rows.
    store.kbKeywords.add(
      kb.id,
      "simple",
      a.chunks.slice(0, 5).map((chunk) => ({ chunkId: chunk.id, terms: "zebra zebra zebra" })),
    );
    expect(packs()).toEqual([]);
    const query = {
      knowledgeBaseId: kb.id,
      k: 10,
      documentIds: null,
      language: "simple" as const,
      terms: ["zebra"],
    };
    expect(
      new SqliteKeywordIndex(store.db)
        .search(query)
        .map((hit) => hit.chunkId)
        .sort(),
    ).toEqual(
      a.chunks
        .slice(0, 5)
        .map((chunk) => chunk.id)
        .sort(),
    );
    expect(packs()).toEqual([{ revision_id: a.revision.id, language: "simple", row_count: 120 }]);
    agree();
    // A served revision found without a pack (served before migration 31) is packed the same way.
    store.db.prepare("DELETE FROM kb_keyword_packs").run();
    agree();
    expect(packs()).toHaveLength(1);
  });

  it("of a language are dropped with its rows when the knowledge base switches language", () => {
    const { store, kb, write, packs } = setup();
    store.knowledgeBases.activateRevision(write("a.txt", 30).revision.id);
    expect(packs()).toHaveLength(1);
    store.db
      .prepare("UPDATE knowledge_bases SET pending_text_search_language = 'english' WHERE id = ?")
      .run(kb.id);
    expect(store.kbKeywords.finish(kb.id, "english")).toBe(true);
    expect(packs()).toEqual([]);
  });
});
