import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { ConversionService, PlatformStore } from "@groundwork/platform";
import { buildCsv, buildDocx, buildPdf, buildTxt } from "@groundwork/testkit";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { b64, conversionApp, json } from "../../../test/convert-test-support.js";
import {
  bearer,
  createTestTenant,
  openTestDatabase,
  type TestDatabase,
  type TestTenant,
} from "../../../test/test-support.js";
import type { App } from "../../app.js";

let tenant: TestTenant;
let app: App;
let service: ConversionService;

beforeEach(async () => {
  tenant = await createTestTenant("enterprise");
  ({ app, service } = conversionApp(tenant.store, { workers: { leaseMs: 2000, pollMs: 20 } }));
});
afterEach(async () => {
  await service.stopWorker();
  await tenant.store.close();
});

function post(path: string, body: unknown, key = tenant.keys.member) {
  return app.request(path, {
    method: "POST",
    headers: { ...bearer(key), "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

describe("POST /v1/convert/source", () => {
  it("converts base64 sources: 200, MD and TEXT by default, metadata, processingTime in seconds", async () => {
    const docx = await buildDocx([
      { heading: "Purchase Order", level: 1 },
      { paragraph: "Ship 40 pallets." },
    ]);
    const response = await post("/v1/convert/source", {
      sources: [{ kind: "base64", content: b64(docx), filename: "po.docx" }],
    });
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body.status).toBe("SUCCESS");
    expect(body.errors).toEqual([]);
    expect(typeof body.processingTime).toBe("number");
    expect(body.processingTime).toBeLessThan(60);
    expect(body.documents).toHaveLength(1);
    expect(body.documents[0]).toMatchObject({
      filename: "po.docx",
      metadata: { format: "docx", pipeline: "fast" },
    });
    expect(body.documents[0].mdContent).toContain("# Purchase Order");
    expect(body.documents[0].textContent).toContain("Ship 40 pallets.");
    expect(body.documents[0].jsonContent).toBeUndefined();
  });

  it("returns only the requested output formats", async () => {
    const response = await post("/v1/convert/source", {
      sources: [{ kind: "base64", content: b64(buildCsv()), mimeType: "text/csv" }],
      options: { options: { outputFormats: ["JSON", "HTML"] } },
    });
    expect(response.status).toBe(200);
    const [document] = (await json(response)).documents;
    expect(document.mdContent).toBeUndefined();
    expect(document.textContent).toBeUndefined();
    expect(document.jsonContent.schema).toBe("groundwork.document/v1");
    expect(document.htmlContent).toContain("<td>Bolt, M8</td>");
    expect(document.filename).toBe("document-1");
  });

  it("answers 207 with an error entry when some documents fail", async () => {
    const response = await post("/v1/convert/source", {
      sources: [
        { kind: "base64", content: b64(buildTxt()), filename: "ok.txt" },
        { kind: "base64", content: b64(new Uint8Array([0, 1, 2, 3, 0, 9])), filename: "junk.bin" },
      ],
    });
    expect(response.status).toBe(207);
    const body = await json(response);
    expect(body.status).toBe("PARTIAL_SUCCESS");
    expect(body.documents.map((d: { filename: string }) => d.filename)).toEqual(["ok.txt"]);
    expect(body.errors).toEqual([
      {
        filename: "junk.bin",
        code: "unsupported_format",
        message: expect.stringMatching(/Unrecognised binary content/),
        pipeline: "fast",
        format: null,
      },
    ]);
  });

  it("answers 422 when every document fails (pipeline matrix)", async () => {
    const response = await post("/v1/convert/source", {
      sources: [{ kind: "base64", content: b64(buildTxt()), filename: "a.txt" }],
      options: { pipeline: "ocr" },
    });
    expect(response.status).toBe(422);
    const body = await json(response);
    expect(body.status).toBe("FAILURE");
    expect(body.errors[0]).toMatchObject({
      code: "unsupported_pipeline",
      message: expect.stringContaining("fast"),
    });
  });

  it.each([
    [{}, "sources"],
    [{ sources: [] }, "sources"],
    [{ sources: [{ kind: "ftp", url: "ftp://x" }] }, "sources[0].kind"],
    [{ sources: [{ kind: "base64", content: "%%%not base64%%%" }] }, "sources[0].content"],
    [{ sources: [{ kind: "http", url: "file:///etc/passwd" }] }, "sources[0].url"],
    [{ sources: [{ kind: "base64", content: "aGk=" }], options: { pipeline: "magic" } }, "options.pipeline"],
    [
      { sources: [{ kind: "base64", content: "aGk=" }], options: { options: { ocrEngine: "easyocr" } } },
      "options.options.ocrEngine",
    ],
  ])("answers 400 for an invalid body %#", async (body, param) => {
    const response = await post("/v1/convert/source", body);
    expect(response.status).toBe(400);
    expect((await json(response)).error).toMatchObject({ type: "invalid_request_error", param });
  });

  it("needs the Member role", async () => {
    const response = await post(
      "/v1/convert/source",
      { sources: [{ kind: "base64", content: "aGk=" }] },
      tenant.keys.viewer,
    );
    expect(response.status).toBe(403);
  });
});

describe("POST /v1/convert/file", () => {
  it("converts uploads with pipeline as query and options as a JSON part", async () => {
    const form = new FormData();
    form.append("files", new Blob([buildTxt()], { type: "text/plain" }), "notes.txt");
    form.append(
      "files",
      new Blob([buildPdf([{ lines: [{ text: "Uploaded PDF", size: 20 }, { text: "Body" }] }])]),
      "up.pdf",
    );
    form.append(
      "options",
      new Blob([JSON.stringify({ outputFormats: ["MD"] })], { type: "application/json" }),
    );
    const response = await app.request("/v1/convert/file?pipeline=fast", {
      method: "POST",
      headers: bearer(tenant.keys.member),
      body: form,
    });
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body.documents.map((d: { filename: string }) => d.filename)).toEqual(["notes.txt", "up.pdf"]);
    expect(body.documents[1].mdContent).toContain("# Uploaded PDF");
    expect(body.documents[1].textContent).toBeUndefined();
  });

  it("takes pipeline as a form field and enforces the matrix per document", async () => {
    const form = new FormData();
    form.append("files", new Blob([buildTxt()]), "notes.txt");
    form.append("pipeline", "vlm");
    const response = await app.request("/v1/convert/file", {
      method: "POST",
      headers: bearer(tenant.keys.member),
      body: form,
    });
    expect(response.status).toBe(422);
    expect((await json(response)).errors[0]).toMatchObject({
      filename: "notes.txt",
      code: "unsupported_pipeline",
      pipeline: "vlm",
    });
  });

  it("answers 400 without files or with a malformed options part", async () => {
    const empty = new FormData();
    empty.append("pipeline", "fast");
    const none = await app.request("/v1/convert/file", {
      method: "POST",
      headers: bearer(tenant.keys.member),
      body: empty,
    });
    expect(none.status).toBe(400);
    const bad = new FormData();
    bad.append("files", new Blob([buildTxt()]), "a.txt");
    bad.append("options", new Blob(["{not json"], { type: "application/json" }));
    const response = await app.request("/v1/convert/file", {
      method: "POST",
      headers: bearer(tenant.keys.member),
      body: bad,
    });
    expect(response.status).toBe(400);
    expect((await json(response)).error.param).toBe("options");
  });
});

describe("http sources", () => {
  let server: Server;
  let origin: string;
  let seen: IncomingHttpHeaders[];
  beforeAll(async () => {
    seen = [];
    server = createServer((req, res) => {
      seen.push(req.headers);
      if (req.url === "/doc.txt") {
        res.writeHead(200, { "content-type": "text/plain" }).end(Buffer.from(buildTxt()));
      } else if (req.url === "/redirect-file") {
        res.writeHead(302, { location: "file:///etc/passwd" }).end();
      } else if (req.url === "/redirect-ok") {
        res.writeHead(302, { location: "/doc.txt" }).end();
      } else if (req.url === "/big") {
        res.writeHead(200, { "content-type": "text/plain" }).end(Buffer.alloc(4096, 97));
      } else if (req.url === "/hang") {
        // never answers
      } else {
        res.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  it("refuses loopback targets unless private networks are allowed", async () => {
    const response = await post("/v1/convert/source", {
      sources: [{ kind: "http", url: `${origin}/doc.txt` }],
    });
    expect(response.status).toBe(422);
    const body = await json(response);
    expect(body.errors[0]).toMatchObject({ code: "source_refused", filename: `${origin}/doc.txt` });
    expect(body.errors[0].message).toMatch(/GROUNDWORK_ALLOW_PRIVATE_NETWORK/);
  });

  it("fetches with the given headers, follows same-scheme redirects, refuses file: redirects, caps size and time", async () => {
    ({ app, service } = conversionApp(tenant.store, {
      allowPrivateNetwork: true,
      conversion: { maxFetchBytes: 1024, fetchTimeoutMs: 300 },
    }));
    const response = await post("/v1/convert/source", {
      sources: [
        { kind: "http", url: `${origin}/doc.txt`, headers: { "x-source-token": "s3cret" } },
        { kind: "http", url: `${origin}/redirect-ok` },
        { kind: "http", url: `${origin}/redirect-file` },
        { kind: "http", url: `${origin}/big` },
        { kind: "http", url: `${origin}/hang` },
        { kind: "http", url: `${origin}/missing` },
      ],
    });
    expect(response.status).toBe(207);
    const body = await json(response);
    expect(body.documents.map((d: { filename: string }) => d.filename)).toEqual(["doc.txt", "doc.txt"]);
    expect(body.documents[0].textContent).toContain("Hamburg");
    expect(seen.some((headers) => headers["x-source-token"] === "s3cret")).toBe(true);
    expect(body.errors.map((e: { code: string }) => e.code)).toEqual([
      "source_refused",
      "limit_exceeded",
      "fetch_failed",
      "fetch_failed",
    ]);
    expect(body.errors[2].message).toMatch(/did not answer within 0.3 s/);
    expect(body.errors[3].message).toMatch(/404/);
  });
});

async function waitForTask(taskId: string, key = tenant.keys.viewer) {
  const response = await app.request(`/v1/convert/tasks/${taskId}?wait=20`, { headers: bearer(key) });
  expect(response.status).toBe(200);
  return json(response);
}

describe("async conversion", () => {
  it("queues a task (202, Location, Retry-After), runs it on the job queue, and serves its result", async () => {
    const response = await post("/v1/convert/source/async", {
      sources: [
        { kind: "base64", content: b64(buildTxt()), filename: "a.txt" },
        { kind: "base64", content: b64(new Uint8Array([0, 0, 1])), filename: "bad.bin" },
      ],
      options: { options: { outputFormats: ["TEXT"] } },
    });
    expect(response.status).toBe(202);
    expect(response.headers.get("retry-after")).toBe("5");
    const task = await json(response);
    expect(response.headers.get("location")).toBe(`/v1/convert/tasks/${task.taskId}`);
    expect(task).toEqual({
      taskId: task.taskId,
      taskType: "CONVERT",
      taskStatus: "pending",
      taskMeta: { numDocs: 2, numProcessed: 0 },
    });

    const early = await app.request(`/v1/convert/tasks/${task.taskId}/result`, {
      headers: bearer(tenant.keys.viewer),
    });
    expect(early.status).toBe(202);
    expect((await json(early)).status).toBe("PENDING");

    service.startWorker();
    const done = await waitForTask(task.taskId);
    expect(done).toEqual({
      taskId: task.taskId,
      taskType: "CONVERT",
      taskStatus: "success",
      taskMeta: { numDocs: 2, numProcessed: 2, numSucceeded: 1, numFailed: 1 },
    });
    const result = await app.request(`/v1/convert/tasks/${task.taskId}/result`, {
      headers: bearer(tenant.keys.viewer),
    });
    expect(result.status).toBe(207);
    const body = await json(result);
    expect(body.documents[0].textContent).toContain("Hamburg");
    expect(body.errors[0]).toMatchObject({ filename: "bad.bin" });
  });

  it("accepts uploads asynchronously", async () => {
    const form = new FormData();
    form.append("files", new Blob([buildCsv()]), "parts.csv");
    const response = await app.request("/v1/convert/file/async", {
      method: "POST",
      headers: bearer(tenant.keys.member),
      body: form,
    });
    expect(response.status).toBe(202);
    const task = await json(response);
    service.startWorker();
    expect((await waitForTask(task.taskId)).taskStatus).toBe("success");
    const result = await app.request(`/v1/convert/tasks/${task.taskId}/result`, {
      headers: bearer(tenant.keys.viewer),
    });
    expect(result.status).toBe(200);
    expect((await json(result)).documents[0].mdContent).toContain("| A-100 | Bolt, M8 | 250 |");
  });

  it("long-polls at most `wait` seconds and hides other organizations' tasks", async () => {
    const task = await json(
      await post("/v1/convert/source/async", { sources: [{ kind: "base64", content: b64(buildTxt()) }] }),
    );
    const started = Date.now();
    const polled = await app.request(`/v1/convert/tasks/${task.taskId}?wait=0.4`, {
      headers: bearer(tenant.keys.viewer),
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(350);
    expect((await json(polled)).taskStatus).toBe("pending");
    const stranger = await tenant.keyFor("admin", "enterprise");
    expect(
      (await app.request(`/v1/convert/tasks/${task.taskId}`, { headers: bearer(stranger) })).status,
    ).toBe(404);
    expect(
      (await app.request(`/v1/convert/tasks/${task.taskId}?wait=-1`, { headers: bearer(tenant.keys.viewer) }))
        .status,
    ).toBe(400);
  });

  it("cancels a pending task with DELETE, then deletes the finished one", async () => {
    const task = await json(
      await post("/v1/convert/source/async", { sources: [{ kind: "base64", content: b64(buildTxt()) }] }),
    );
    const viewerDelete = await app.request(`/v1/convert/tasks/${task.taskId}`, {
      method: "DELETE",
      headers: bearer(tenant.keys.viewer),
    });
    expect(viewerDelete.status).toBe(403);
    const canceled = await app.request(`/v1/convert/tasks/${task.taskId}`, {
      method: "DELETE",
      headers: bearer(tenant.keys.member),
    });
    expect(canceled.status).toBe(200);
    expect((await json(canceled)).taskStatus).toBe("failure");
    service.startWorker(); // the queued job must not resurrect it
    await new Promise((resolve) => setTimeout(resolve, 200));
    const result = await app.request(`/v1/convert/tasks/${task.taskId}/result`, {
      headers: bearer(tenant.keys.viewer),
    });
    expect(result.status).toBe(422);
    expect((await json(result)).errors[0]).toMatchObject({ code: "canceled" });
    const deleted = await app.request(`/v1/convert/tasks/${task.taskId}`, {
      method: "DELETE",
      headers: bearer(tenant.keys.member),
    });
    expect(deleted.status).toBe(204);
    expect(
      (await app.request(`/v1/convert/tasks/${task.taskId}`, { headers: bearer(tenant.keys.viewer) })).status,
    ).toBe(404);
  });
});

describe("restart mid-task", () => {
  async function fileTenant(
    database: TestDatabase,
    workers: { leaseMs: number; pollMs?: number },
  ): Promise<{ store: PlatformStore; member: string; app: App; service: ConversionService }> {
    const store = await database.open();
    const organization = (await store.organizations.ensure("acme", "enterprise")).organization;
    const member = (await store.apiKeys.create({ organizationId: organization.id, role: "member" })).key;
    return { store, member, ...conversionApp(store, { workers }) };
  }

  it("resumes a task whose server died while processing it", async () => {
    const database = await openTestDatabase();
    try {
      const first = await fileTenant(database, { leaseMs: 100 });
      const response = await first.app.request("/v1/convert/source/async", {
        method: "POST",
        headers: { ...bearer(first.member), "content-type": "application/json" },
        body: JSON.stringify({
          sources: [{ kind: "base64", content: b64(buildTxt()), filename: "survivor.txt" }],
        }),
      });
      const task = await json(response);
      // The doomed server claims the job, starts the task, and dies without finishing.
      expect(await first.store.jobs.claim(["convert"], "doomed", 100)).not.toBeNull();
      expect(await first.store.conversionTasks.start(task.taskId)).toBe(true);
      await first.store.close();

      const second = await fileTenant(database, { leaseMs: 2000, pollMs: 20 });
      const restarted = second.service;
      const stuck = await second.app.request(`/v1/convert/tasks/${task.taskId}`, {
        headers: bearer(second.member),
      });
      expect((await json(stuck)).taskStatus).toBe("processing");
      restarted.startWorker();
      try {
        const done = await json(
          await second.app.request(`/v1/convert/tasks/${task.taskId}?wait=20`, {
            headers: bearer(second.member),
          }),
        );
        expect(done.taskStatus).toBe("success");
        const result = await json(
          await second.app.request(`/v1/convert/tasks/${task.taskId}/result`, {
            headers: bearer(second.member),
          }),
        );
        expect(result.documents[0].filename).toBe("survivor.txt");
        expect(await second.store.conversionTasks.inputs(task.taskId)).toEqual([]); // inputs dropped once finished
      } finally {
        await restarted.stopWorker();
        await second.store.close();
      }
    } finally {
      database.remove();
    }
  });

  it("fails, never strands, a task whose every attempt died", async () => {
    const task = await json(
      await post("/v1/convert/source/async", { sources: [{ kind: "base64", content: b64(buildTxt()) }] }),
    );
    for (let attempt = 1; attempt <= 3; attempt++) {
      expect(await tenant.store.jobs.claim(["convert"], `doomed-${attempt}`, 1)).not.toBeNull();
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const polled = await json(
      await app.request(`/v1/convert/tasks/${task.taskId}`, { headers: bearer(tenant.keys.viewer) }),
    );
    expect(polled.taskStatus).toBe("failure");
    const result = await app.request(`/v1/convert/tasks/${task.taskId}/result`, {
      headers: bearer(tenant.keys.viewer),
    });
    expect(result.status).toBe(422);
    expect((await json(result)).errors[0]).toMatchObject({ code: "task_failed" });
  });
});
