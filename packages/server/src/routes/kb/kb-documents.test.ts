/** Uploads, attachments, statuses, retry, the revision switch, deletion and citations. */
import { buildPdf } from "@groundwork/testkit";
import { describe, expect, it } from "vitest";
import { type KbHarness, kbHarness } from "../../../test/kb-test-support.js";
import { bearer, bodyOf, queryTestStore } from "../../../test/test-support.js";

interface Accepted {
  filename: string;
  upload?: {
    document: { id: string; name: string; knowledgeBaseId: string };
    acceptedVersion: { id: string; versionNo: number; status: string; mime: string; byteSize: number };
  };
  error?: { code: string; message: string };
}

async function uploadOne(
  h: KbHarness,
  kbId: string,
  name: string,
  content: string | Uint8Array,
  type?: string,
) {
  const response = await h.upload(kbId, [{ name, content, ...(type === undefined ? {} : { type }) }]);
  expect(response.status).toBe(202);
  const [entry] = (await response.json()) as Accepted[];
  if (entry?.upload === undefined) throw new Error(`not accepted: ${JSON.stringify(entry)}`);
  return entry.upload;
}

async function search(
  h: KbHarness,
  kbId: string,
  body: Record<string, unknown>,
  role: "viewer" | "admin" = "viewer",
) {
  const response = await h.json("POST", `/v1/knowledge-bases/${kbId}/search`, body, role);
  return { status: response.status, body: await bodyOf(response) };
}

type Hit = {
  chunkId: string;
  content: string;
  documentVersionId: string;
  documentId: string;
  matchedSpan?: string;
};

describe("POST /v1/knowledge-bases/{id}/documents", () => {
  it("answers 202 with one entry per file, accepted or not", async () => {
    const h = await kbHarness();
    const kb = await h.createKb();
    const response = await h.upload(kb.id as string, [
      { name: "notes.txt", content: "Plain notes about invoices." },
      { name: "empty.txt", content: "" },
      {
        name: "blob.bin",
        content: new Uint8Array([0, 1, 2, 3, 0xff, 0xfe, 0, 0, 7, 9, 0, 1]),
        type: "application/octet-stream",
      },
      { name: "fake.pdf", content: "this is not a pdf", type: "application/pdf" },
    ]);
    expect(response.status).toBe(202);
    const entries = (await response.json()) as Accepted[];
    expect(entries.map((e) => e.filename)).toEqual(["notes.txt", "empty.txt", "blob.bin", "fake.pdf"]);
    expect(entries[0]?.upload).toMatchObject({
      document: { name: "notes.txt", knowledgeBaseId: kb.id },
      acceptedVersion: { versionNo: 1, status: "PENDING", mime: "text/plain", byteSize: 27 },
    });
    expect(entries[1]?.error?.code).toBe("empty_file");
    expect(entries[2]?.error?.code).toBe("unsupported_format");
    expect(entries[3]?.error?.code).toBe("corrupt_document");
  });

  it("answers 202 even when every file was rejected", async () => {
    const h = await kbHarness();
    const kb = await h.createKb();
    const response = await h.upload(kb.id as string, [{ name: "a.txt", content: "" }]);
    expect(response.status).toBe(202);
    expect(((await response.json()) as Accepted[])[0]?.error).toBeDefined();
  });

  it("413 file_too_large for a file over 25 MB", async () => {
    const h = await kbHarness();
    const kb = await h.createKb();
    const big = new Uint8Array(25 * 1024 * 1024 + 1).fill(97);
    const response = await h.upload(kb.id as string, [{ name: "big.txt", content: big }]);
    expect(response.status).toBe(413);
    expect((await bodyOf(response)).error.code).toBe("file_too_large");
  });

  it("accepts a request over the app's 32 MiB JSON limit and answers 413 over 104 MB", async () => {
    const h = await kbHarness();
    const kb = await h.createKb();
    const part = new Uint8Array(21 * 1024 * 1024).fill(98);
    const fits = await h.upload(kb.id as string, [
      { name: "a.txt", content: part },
      { name: "b.txt", content: part },
    ]);
    expect(fits.status).toBe(202);
    const over = await h.upload(
      kb.id as string,
      ["a", "b", "c", "d", "e"].map((name) => ({ name: `${name}.txt`, content: part })),
    );
    expect(over.status).toBe(413);
    expect((await bodyOf(over)).error.type).toBe("invalid_request_error");
  }, 60_000);

  it("400 without multipart or files, 403 for a Viewer, 404 for an unknown knowledge base", async () => {
    const h = await kbHarness();
    const kb = await h.createKb();
    expect((await h.json("POST", `/v1/knowledge-bases/${kb.id}/documents`, { files: [] })).status).toBe(400);
    const form = new FormData();
    form.append("other", "x");
    const noFiles = await h.app.request(`/v1/knowledge-bases/${kb.id}/documents`, {
      method: "POST",
      headers: bearer(h.tenant.keys.member),
      body: form,
    });
    expect(noFiles.status).toBe(400);
    const viewerForm = new FormData();
    viewerForm.append("files", new File(["x"], "x.txt"));
    const viewer = await h.app.request(`/v1/knowledge-bases/${kb.id}/documents`, {
      method: "POST",
      headers: bearer(h.tenant.keys.viewer),
      body: viewerForm,
    });
    expect(viewer.status).toBe(403);
    expect((await h.upload("kb_unknown", [{ name: "x.txt", content: "x" }])).status).toBe(404);
  });
});

describe("ingestion statuses", () => {
  it("PENDING → READY through conversion, chunking and embedding; documents list and filters", async () => {
    const h = await kbHarness();
    const kb = await h.createKb();
    const upload = await uploadOne(
      h,
      kb.id as string,
      "guide.md",
      "# Guide\n\n## Install\n\nRun the installer twice.\n\n## Clean\n\nWipe with a dry cloth.",
      "text/markdown",
    );
    const versionPath = `/v1/knowledge-bases/${kb.id}/documents/${upload.document.id}/versions/${upload.acceptedVersion.id}`;
    expect((await bodyOf(await h.json("GET", versionPath, undefined, "viewer"))).status).toBe("PENDING");
    const pending = await bodyOf(
      await h.json("GET", `/v1/knowledge-bases/${kb.id}/documents?status=PENDING`),
    );
    expect(pending.totalElements).toBe(1);
    expect(await h.drain()).toBe(1);
    const version = await bodyOf(await h.json("GET", versionPath, undefined, "viewer"));
    expect(version).toMatchObject({
      id: upload.acceptedVersion.id,
      versionNo: 1,
      status: "READY",
      error: null,
    });
    const ready = await bodyOf(await h.json("GET", `/v1/knowledge-bases/${kb.id}/documents?status=READY`));
    expect(ready.totalElements).toBe(1);
    expect(
      (await bodyOf(await h.json("GET", `/v1/knowledge-bases/${kb.id}/documents?status=PENDING`)))
        .totalElements,
    ).toBe(0);
    expect((await h.json("GET", `/v1/knowledge-bases/${kb.id}/documents?status=DONE`)).status).toBe(400);
    const document = await bodyOf(
      await h.json("GET", `/v1/knowledge-bases/${kb.id}/documents/${upload.document.id}`),
    );
    expect(document).toMatchObject({
      name: "guide.md",
      currentVersion: { status: "READY" },
      servingVersion: { id: upload.acceptedVersion.id },
    });
    expect((await h.json("GET", `/v1/knowledge-bases/${kb.id}/documents/kbd_nope`)).status).toBe(404);
    expect(
      (await h.json("GET", `/v1/knowledge-bases/${kb.id}/documents/${upload.document.id}/versions/kbv_nope`))
        .status,
    ).toBe(404);
    const result = await search(h, kb.id as string, { query: "dry cloth" });
    const hit = (result.body.hits as Hit[])[0];
    expect(hit?.content).toContain("Wipe with a dry cloth.");
    expect(result.body).not.toHaveProperty("degraded");
    expect(hit).toMatchObject({ headingPath: ["Guide", "Clean"], documentName: "guide.md" });
  });

  it("CUSTOM chunking fails ingestion with a reason", async () => {
    const h = await kbHarness();
    const kb = await h.createKb({ chunkingStrategy: "CUSTOM" });
    const upload = await uploadOne(h, kb.id as string, "a.txt", "Some text.");
    await h.drain();
    const version = await bodyOf(
      await h.json(
        "GET",
        `/v1/knowledge-bases/${kb.id}/documents/${upload.document.id}/versions/${upload.acceptedVersion.id}`,
      ),
    );
    expect(version.status).toBe("ERROR");
    expect(version.error).toMatch(/CUSTOM/);
  });

  it("carries page ranges from PDF pages", async () => {
    const h = await kbHarness();
    const kb = await h.createKb({ chunkingStrategy: "FIXED", chunkSize: 60, chunkOverlap: 0 });
    const pdf = buildPdf([
      { lines: [{ text: "Warranty terms cover the pump for two years." }] },
      { lines: [{ text: "Returns are accepted within thirty days of delivery." }] },
    ]);
    await uploadOne(h, kb.id as string, "terms.pdf", pdf, "application/pdf");
    await h.drain();
    const result = await search(h, kb.id as string, { query: "returns thirty days" });
    const hit = (result.body.hits as Array<Hit & { pageStart?: number; pageEnd?: number }>)[0];
    expect(hit?.content).toContain("thirty days");
    expect(hit?.pageEnd).toBe(2);
    expect(hit?.matchedSpan).toContain("thirty days");
  });
});

describe("revisions", () => {
  it("a re-upload creates revision n+1; the previous one serves until the atomic switch", async () => {
    const h = await kbHarness();
    const kb = await h.createKb();
    const v1 = await uploadOne(
      h,
      kb.id as string,
      "policy.txt",
      "Refunds are paid by cheque within ninety days.",
    );
    await h.drain();
    const first = await search(h, kb.id as string, { query: "refunds cheque" });
    const oldHit = (first.body.hits as Hit[])[0];
    expect(oldHit?.documentVersionId).toBe(v1.acceptedVersion.id);

    const v2 = await uploadOne(
      h,
      kb.id as string,
      "policy.txt",
      "Refunds are paid by bank transfer within ten days.",
    );
    expect(v2.document.id).toBe(v1.document.id);
    expect(v2.acceptedVersion.versionNo).toBe(2);
    // Before the new revision is ready, retrieval still serves the old one.
    const during = await search(h, kb.id as string, { query: "refunds" });
    expect((during.body.hits as Hit[]).map((hit) => hit.documentVersionId)).toEqual([v1.acceptedVersion.id]);
    const doc = await bodyOf(await h.json("GET", `/v1/knowledge-bases/${kb.id}/documents/${v1.document.id}`));
    expect(doc).toMatchObject({
      currentVersion: { id: v2.acceptedVersion.id, status: "PENDING" },
      servingVersion: { id: v1.acceptedVersion.id, status: "READY" },
    });

    await h.drain();
    const after = await search(h, kb.id as string, { query: "refunds" });
    const hits = after.body.hits as Hit[];
    expect(hits.map((hit) => hit.documentVersionId)).toEqual([v2.acceptedVersion.id]);
    expect(hits[0]?.content).toContain("bank transfer");

    // An old citation keeps the text the model saw.
    const old = await bodyOf(
      await h.json("GET", `/v1/knowledge-bases/${kb.id}/citations/${oldHit?.chunkId}`, undefined, "viewer"),
    );
    expect(old).toMatchObject({
      chunkId: oldHit?.chunkId,
      documentVersionId: v1.acceptedVersion.id,
      textStatus: "AVAILABLE",
      isCurrentVersion: false,
    });
    expect(old.text).toContain("cheque");
    // The passage's place in its revision's text: code points, and the page it starts on.
    expect(old.span).toEqual({ start: 0, end: [...(old.text as string)].length, page: null });
    const current = await bodyOf(
      await h.json("GET", `/v1/knowledge-bases/${kb.id}/citations/${hits[0]?.chunkId}`),
    );
    expect(current).toMatchObject({ isCurrentVersion: true, textStatus: "AVAILABLE" });
  });

  it("deleting a document takes it out of retrieval and withdraws citation text", async () => {
    const h = await kbHarness();
    const kb = await h.createKb();
    const upload = await uploadOne(
      h,
      kb.id as string,
      "secret.txt",
      "The vault code is kept in the blue binder.",
    );
    await h.drain();
    const hit = ((await search(h, kb.id as string, { query: "vault code" })).body.hits as Hit[])[0];
    expect(hit).toBeDefined();
    const path = `/v1/knowledge-bases/${kb.id}/documents/${upload.document.id}`;
    expect((await h.json("DELETE", path, undefined, "member")).status).toBe(403);
    expect((await h.json("DELETE", path)).status).toBe(204);
    expect((await h.json("GET", path)).status).toBe(404);
    expect((await search(h, kb.id as string, { query: "vault code" })).body.hits).toEqual([]);
    const citation = await bodyOf(
      await h.json("GET", `/v1/knowledge-bases/${kb.id}/citations/${hit?.chunkId}`),
    );
    expect(citation).toMatchObject({
      chunkId: hit?.chunkId,
      documentVersionId: upload.acceptedVersion.id,
      text: null,
      textStatus: "WITHDRAWN",
      isCurrentVersion: false,
    });
    // The text is gone from storage too, not just hidden.
    const stored = await queryTestStore<{ text: string | null }>(
      h.tenant.store,
      "SELECT text FROM kb_chunks WHERE document_id = ?",
      [upload.document.id],
    );
    expect(stored.length).toBeGreaterThan(0);
    expect(stored.every((row) => row.text === null)).toBe(true);
  });

  it("citations of other knowledge bases, other organizations and unknown chunks are 404", async () => {
    const h = await kbHarness();
    const kb = await h.createKb();
    const other = await h.createKb();
    await uploadOne(h, kb.id as string, "a.txt", "Lighthouse keepers log the weather.");
    await h.drain();
    const hit = ((await search(h, kb.id as string, { query: "lighthouse" })).body.hits as Hit[])[0];
    expect((await h.json("GET", `/v1/knowledge-bases/${other.id}/citations/${hit?.chunkId}`)).status).toBe(
      404,
    );
    expect((await h.json("GET", `/v1/knowledge-bases/${kb.id}/citations/chk_unknown`)).status).toBe(404);
    const foreign = await h.app.request(`/v1/knowledge-bases/${kb.id}/citations/${hit?.chunkId}`, {
      headers: bearer(await h.tenant.keyFor("admin", "team")),
    });
    expect(foreign.status).toBe(404);
  });
});

describe("attach from /v1/files", () => {
  async function uploadFile(
    h: KbHarness,
    purpose: string,
    content = "Attached manual: oil the hinge monthly.",
  ) {
    const form = new FormData();
    form.append("file", new File([content], "manual.txt", { type: "text/plain" }));
    form.append("purpose", purpose);
    const response = await h.app.request("/v1/files", {
      method: "POST",
      headers: bearer(h.tenant.keys.member),
      body: form,
    });
    expect(response.status).toBe(201);
    return (await bodyOf(response)).id as string;
  }

  it("202 accepted revision for a knowledge file; 400 other purpose; 404 unknown; 410 deleted", async () => {
    const h = await kbHarness();
    const kb = await h.createKb();
    const fileId = await uploadFile(h, "knowledge");
    const attach = await h.json(
      "POST",
      `/v1/knowledge-bases/${kb.id}/documents/attach`,
      { fileId },
      "member",
    );
    expect(attach.status).toBe(202);
    expect(await bodyOf(attach)).toMatchObject({
      document: { name: "manual.txt", knowledgeBaseId: kb.id },
      acceptedVersion: { versionNo: 1, status: "PENDING", mime: "text/plain" },
    });
    await h.drain();
    const hits = (await search(h, kb.id as string, { query: "hinge" })).body.hits as Hit[];
    expect(hits[0]?.content).toContain("oil the hinge");

    const other = await uploadFile(h, "user_data");
    const wrong = await h.json("POST", `/v1/knowledge-bases/${kb.id}/documents/attach`, { fileId: other });
    expect(wrong.status).toBe(400);
    expect(
      (await h.json("POST", `/v1/knowledge-bases/${kb.id}/documents/attach`, { fileId: "file_nope" })).status,
    ).toBe(404);
    const deleted = await uploadFile(h, "knowledge");
    expect((await h.json("DELETE", `/v1/files/${deleted}`)).status).toBe(204);
    expect(
      (await h.json("POST", `/v1/knowledge-bases/${kb.id}/documents/attach`, { fileId: deleted })).status,
    ).toBe(410);
    expect(
      (await h.json("POST", `/v1/knowledge-bases/${kb.id}/documents/attach`, { fileId }, "viewer")).status,
    ).toBe(403);
  });
});
