/**
 * The web console in a real browser (PLATFORM.md §16): Debian's chromium, headless, driven by
 * playwright-core against the whole server on loopback, with a scripted OpenAI-compatible
 * upstream as the model. Each view's main flow runs at 1280 px and at a 390 px phone width,
 * every control found by its role and accessible name as the contract names it.
 *
 * `CONSOLE_SCREENSHOTS=1` also saves a PNG of each page (1280 px) into docs/console/.
 */
import { mkdirSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createFastFetch } from "@groundwork/gateway";
import { createGroundwork, type Groundwork } from "@groundwork/platform";
import { type RecordedRequest, type Reply, startOpenAIUpstream, type Upstream } from "@groundwork/testkit";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from "vitest";
import { buildConsole, CHROMIUM_PATH } from "../../test/console-support.js";
import { bearer, createTestTenant, type TestTenant } from "../../test/test-support.js";
import { createApp } from "../app.js";
import { listen, type RunningHttpServer } from "../http-server.js";

const MODEL = "gw-chat-1";
const SCREENSHOTS = process.env.CONSOLE_SCREENSHOTS === "1";
const SCREENSHOT_DIR = fileURLToPath(new URL("../../../../docs/console/", import.meta.url));

const INVOICE = [
  "Invoice INV-2024-001 from ACME Tools GmbH",
  "Bill to: Harbour Logistics, Pier 4 — 🚢 dock 7",
  "Line 1: part PN-00001 widget",
  "Line 2: part PN-00002 gadget",
  "Total due: 1,234.50 EUR",
].join("\n");

const REPORT = [
  "# Quarterly report",
  "",
  "## Revenue by region",
  "",
  "| Region | Amount |",
  "|---|---|",
  "| North | 10 |",
  "| South | 20 |",
  "",
  "Revenue grew in both regions.",
  "",
].join("\n");

const KB_TEXT = [
  "Harbour safety manual.",
  "Cranes must be inspected every morning before the first lift.",
  "Forklift drivers wear high-visibility vests at all times.",
  "The tide table is posted at the harbour master's office.",
].join("\n\n");

function userText(request: RecordedRequest): string {
  const body = request.body as { messages?: Array<{ role: string; content: unknown }> };
  const content = body.messages?.find((message) => message.role === "user")?.content;
  if (typeof content === "string") return content;
  return Array.isArray(content)
    ? content
        .map((part: { type: string; text?: string }) => (part.type === "text" ? (part.text ?? "") : ""))
        .join("\n")
    : "";
}

/** The model: an invoice document gets its fields as JSON, anything else a short greeting. */
function reply(request: RecordedRequest): Reply {
  const text = userText(request);
  if (text.includes("Invoice INV-2024-001")) {
    return {
      text: JSON.stringify({
        invoiceNumber: "INV-2024-001",
        vendor: "ACME Tools GmbH",
        lines: [
          { lineNumber: 1, partNumber: "PN-00001", description: "widget" },
          { lineNumber: 2, partNumber: "PN-00002", description: "gadget" },
        ],
      }),
      usage: { inputTokens: 120, outputTokens: 40 },
    };
  }
  return { text: "Hello from the harbour.", usage: { inputTokens: 9, outputTokens: 5 } };
}

const invoiceSchema = {
  type: "object",
  required: ["invoiceNumber", "vendor", "lines"],
  properties: {
    invoiceNumber: { type: "string" },
    vendor: { type: "string" },
    lines: {
      type: "array",
      items: {
        type: "object",
        properties: {
          lineNumber: { type: "integer" },
          partNumber: { type: "string" },
          description: { type: "string" },
        },
      },
    },
  },
};

let upstream: Upstream;
let tenant: TestTenant;
let groundwork: Groundwork;
let http: RunningHttpServer;
let browser: Browser;
let base: string;
let extractionId: string;
let kbId: string;
let traceId: string;

// biome-ignore lint/suspicious/noExplicitAny: test bodies are read field by field
type Body = any;

async function call(method: string, path: string, body?: unknown, key = tenant.keys.admin): Promise<Body> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...bearer(key),
      ...(body === undefined || body instanceof FormData ? {} : { "Content-Type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: body instanceof FormData ? body : JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} → ${response.status} ${text}`);
  return text === "" ? null : JSON.parse(text);
}

async function until<T>(what: string, read: () => Promise<T | null | undefined>): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const value = await read();
    if (value !== null && value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Serves a document the Convert page converts by URL. */
let documents: Server;

/** A one-page PDF showing `text`, written by hand (offsets computed), so the test needs no PDF library. */
function onePagePdf(text: string): Buffer {
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${`BT /F1 18 Tf 20 100 Td (${text}) Tj ET`.length} >>\nstream\nBT /F1 18 Tf 20 100 Td (${text}) Tj ET\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  let pdf = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(pdf.length);
    pdf += `${index + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) pdf += `${String(offset).padStart(10, "0")} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, "latin1");
}

beforeAll(async () => {
  upstream = await startOpenAIUpstream({ models: [MODEL], handler: reply });
  tenant = await createTestTenant("enterprise");
  groundwork = createGroundwork({
    store: tenant.store,
    config: {
      builtin: { baseUrl: upstream.url, apiKey: "builtin-secret" },
      workers: { pollMs: 20 },
      // The URL the Convert page is given points at a document server on loopback.
      allowPrivateNetwork: true,
    },
    fetch: createFastFetch(),
  });
  http = await listen(createApp({ groundwork, consoleDir: await buildConsole() }), {
    host: "127.0.0.1",
    port: 0,
  });
  base = http.url;
  await groundwork.start();

  // An extraction of the invoice (single shot, scored with grounding).
  const schema = await call("POST", "/v1/schemas", { name: "Invoice" });
  await call("POST", `/v1/schemas/${schema.id}/versions`, { jsonSchema: invoiceSchema });
  extractionId = (
    await call("POST", "/v1/extractions", { schemaId: schema.id, inputText: INVOICE, model: MODEL })
  ).id;

  // A knowledge base with one ingested document.
  const kb = await call("POST", "/v1/knowledge-bases", {
    name: "Harbour manuals",
    slug: "harbour-manuals",
    embeddingProviderId: "builtin",
    embeddingModel: "hash-embedding-1536",
    embeddingDim: 1536,
  });
  kbId = kb.id;
  const form = new FormData();
  form.append("files", new File([KB_TEXT], "safety-manual.txt", { type: "text/plain" }));
  await call("POST", `/v1/knowledge-bases/${kbId}/documents`, form, tenant.keys.member);
  await until("the document to be READY", async () => {
    const page = await call("GET", `/v1/knowledge-bases/${kbId}/documents`);
    return page.content[0]?.servingVersion?.status === "READY" ? true : null;
  });

  // Tracing on, one gateway call traced.
  await call("PUT", "/v1/tracing/settings", { enabled: true });
  await call(
    "POST",
    "/v1/chat/completions",
    { model: MODEL, messages: [{ role: "user", content: "Say hello" }] },
    tenant.keys.member,
  );
  traceId = await until("the trace", async () => (await call("GET", "/v1/traces")).content[0]?.id);

  documents = createServer((request, response) => {
    if (request.url === "/reports/quarterly.md") {
      response.writeHead(200, { "content-type": "text/markdown" }).end(REPORT);
    } else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => documents.listen(0, "127.0.0.1", resolve));

  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true });
}, 120_000);

afterAll(async () => {
  documents?.close();
  await browser?.close();
  await http?.close();
  await groundwork?.close();
  await tenant?.store.close();
  await upstream?.close();
});

/** A browser-side expression's value (a string, so the Node-typed test needs no DOM types). */
function inPage<T>(page: Page, expression: string): Promise<T> {
  return page.evaluate(expression) as Promise<T>;
}

async function screenshot(page: Page, name: string, width: number): Promise<void> {
  if (!SCREENSHOTS || width !== 1280) return;
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`) });
}

async function signIn(page: Page, path = "/console/"): Promise<void> {
  await page.goto(`${base}${path}`);
  await page.getByLabel("API key").fill(tenant.keys.member);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("navigation").waitFor();
}

/** The page fits the viewport's width: nothing scrolls sideways but inside its own scroller. */
async function expectNoSidewaysScroll(page: Page, width: number): Promise<void> {
  const scrollWidth = await inPage<number>(page, "document.documentElement.scrollWidth");
  expect(scrollWidth).toBeLessThanOrEqual(width);
}

for (const width of [1280, 390]) {
  describe(`the console at ${width} px`, () => {
    let page: Page;
    const requests: string[] = [];

    beforeAll(async () => {
      const context = await browser.newContext({ viewport: { width, height: 860 }, acceptDownloads: true });
      context.setDefaultTimeout(8_000);
      page = await context.newPage();
      page.on("request", (request) => requests.push(request.url()));
    });
    afterAll(async () => {
      await page.context().close();
    });
    beforeEach(() => {
      // What the page showed when a step failed, for the failure message.
      onTestFailed(async () => {
        console.error(
          `page ${page.url()} at ${width} px:\n${await page
            .locator("body")
            .textContent()
            .catch(() => "")}`,
        );
      });
    });

    it("refuses a wrong key with an alert, signs in, shows the navigation", async () => {
      await page.goto(`${base}/console/`);
      await screenshot(page, "sign-in", width);
      await page.getByLabel("API key").fill("gw_live_not-a-real-key");
      await page.getByRole("button", { name: "Sign in" }).click();
      const alert = page.getByRole("alert");
      await alert.waitFor();
      expect(await alert.textContent()).toMatch(/401|invalid/i);
      expect(await inPage<number>(page, "sessionStorage.length")).toBe(0);

      await page.getByLabel("API key").fill(tenant.keys.member);
      await page.getByRole("button", { name: "Sign in" }).click();
      const nav = page.getByRole("navigation");
      await nav.waitFor();
      for (const name of ["Convert", "Extractions", "Knowledge bases", "Traces", "Annotation queues"]) {
        expect(await nav.getByRole("link", { name, exact: true }).count(), name).toBe(1);
      }
      expect(await page.getByRole("button", { name: "Sign out" }).count()).toBe(1);
      expect(new URL(page.url()).pathname).toBe("/console/convert");
      // The key is in sessionStorage, never in a cookie or the URL.
      expect(await inPage<string[]>(page, "Object.values(sessionStorage)")).toEqual([tenant.keys.member]);
      expect((await page.context().cookies()).length).toBe(0);
      expect(page.url()).not.toContain(tenant.keys.member);
    });

    it("converts a Markdown document synchronously: rendered headings and table, a Download link", async () => {
      await page.getByRole("link", { name: "Convert", exact: true }).click();
      await page.getByLabel("Document").setInputFiles({
        name: "report.md",
        mimeType: "text/markdown",
        buffer: Buffer.from(REPORT),
      });
      await page.getByLabel("Output").selectOption({ label: "Markdown" });
      await page.getByRole("button", { name: "Convert" }).click();
      const result = page.getByRole("region", { name: "Result" });
      await result.getByRole("heading", { name: "Quarterly report", level: 1 }).waitFor();
      expect(await result.getByRole("heading", { name: "Revenue by region", level: 2 }).count()).toBe(1);
      const table = result.getByRole("table");
      expect(await table.count()).toBe(1);
      expect(await table.getByRole("cell", { name: "South" }).count()).toBe(1);
      // The original beside it, as the browser shows a text file.
      const original = result.getByRole("region", { name: "Original" });
      expect(await original.getByText("# Quarterly report").count()).toBe(1);
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        result.getByRole("link", { name: "Download" }).click(),
      ]);
      expect(download.suggestedFilename()).toBe("report.md");
      const { readFile } = await import("node:fs/promises");
      const saved = await readFile((await download.path()) as string, "utf8");
      expect(saved).toContain("# Quarterly report");
      expect(saved).toContain("| South | 20 |");
      await expectNoSidewaysScroll(page, width);
      await screenshot(page, "convert", width);
    });

    it("converts as a background task with progress, to plain text", async () => {
      await page.getByLabel("Document").setInputFiles({
        name: "report.md",
        mimeType: "text/markdown",
        buffer: Buffer.from(REPORT),
      });
      await page.getByLabel("Output").selectOption({ label: "Text" });
      await page.getByLabel("Run as background task").check();
      await page.getByRole("button", { name: "Convert" }).click();
      const result = page.getByRole("region", { name: "Result" });
      await result.getByText("Revenue grew in both regions.").first().waitFor();
      const progress = page.getByRole("progressbar", { name: "Conversion progress" });
      expect(await progress.getAttribute("value")).toBe("1");
      expect(await page.getByRole("status").filter({ hasText: "1 of 1 documents processed" }).count()).toBe(
        1,
      );
      expect(await result.getByRole("link", { name: "Download" }).getAttribute("download")).toBe(
        "report.txt",
      );
    });

    it("converts a document given by URL, with the original linked beside the result", async () => {
      await page.getByLabel("Document").setInputFiles([]);
      await page.getByLabel("Run as background task").uncheck();
      const address = `http://127.0.0.1:${(documents.address() as { port: number }).port}/reports/quarterly.md`;
      await page.getByLabel("Or a URL").fill(address);
      await page.getByLabel("Output").selectOption({ label: "Markdown" });
      await page.getByRole("button", { name: "Convert" }).click();
      const result = page.getByRole("region", { name: "Result" });
      await result.getByRole("heading", { name: "Quarterly report", level: 1 }).waitFor();
      const original = result.getByRole("region", { name: "Original" });
      expect(await original.getByRole("link", { name: address }).count()).toBe(1);
      expect(await result.getByRole("link", { name: "Download" }).getAttribute("download")).toBe(
        "quarterly.md",
      );
      await page.getByLabel("Or a URL").fill("");
    });

    it("shows an uploaded PDF in the browser's viewer beside its Markdown", async () => {
      await page.getByLabel("Document").setInputFiles({
        name: "memo.pdf",
        mimeType: "application/pdf",
        buffer: onePagePdf("Harbour memo"),
      });
      await page.getByLabel("Output").selectOption({ label: "Markdown" });
      await page.getByRole("button", { name: "Convert" }).click();
      const result = page.getByRole("region", { name: "Result" });
      await result.getByText("Harbour memo").first().waitFor();
      const frame = result
        .getByRole("region", { name: "Original" })
        .locator("iframe[title='Original document']");
      expect(await frame.getAttribute("src")).toMatch(/^blob:/);
      await expectNoSidewaysScroll(page, width);
    });

    it("sends the chosen pipeline: VLM without a vision model fails the document with the reason", async () => {
      await page.getByLabel("Pipeline").selectOption({ label: "VLM (vision model)" });
      await page.getByRole("button", { name: "Convert" }).click();
      const result = page.getByRole("region", { name: "Result" });
      await result.getByRole("alert").waitFor();
      expect(await result.getByRole("alert").textContent()).toMatch(/needs a vision model/);
      await page.getByLabel("Pipeline").selectOption({ label: "Fast" });
    });

    it("lists extractions and reviews one: marks at the grounded values, the Fields table focuses them", async () => {
      await page.getByRole("link", { name: "Extractions", exact: true }).click();
      await page.getByRole("link", { name: extractionId }).click();
      const source = page.getByRole("region", { name: "Source" });
      await source.locator("mark").first().waitFor();
      expect(await source.textContent()).toContain(INVOICE);
      const marks = await source
        .locator("mark")
        .evaluateAll((nodes) => nodes.map((node) => [node.getAttribute("data-pointer"), node.textContent]));
      expect(marks).toEqual(
        expect.arrayContaining([
          ["/invoiceNumber", "INV-2024-001"],
          ["/vendor", "ACME Tools GmbH"],
          ["/lines/0/partNumber", "PN-00001"],
          ["/lines/1/description", "gadget"],
        ]),
      );
      const table = page.getByRole("table", { name: "Fields" });
      const headers = await table.getByRole("columnheader").allTextContents();
      expect(headers).toEqual(["Field", "Value", "Confidence", "Flags"]);
      const row = table.getByRole("row").filter({ hasText: "lines[1].partNumber" });
      await row.click();
      await expect
        .poll(() => inPage<string | null>(page, 'document.activeElement?.getAttribute("data-pointer")'))
        .toBe("/lines/1/partNumber");
      expect(await inPage<string>(page, "document.activeElement?.tagName")).toBe("MARK");
      // The keyboard works too: focus a row, Enter.
      await table.getByRole("row").filter({ hasText: "vendor" }).focus();
      await page.keyboard.press("Enter");
      await expect
        .poll(() => inPage<string | null>(page, 'document.activeElement?.getAttribute("data-pointer")'))
        .toBe("/vendor");
      await expectNoSidewaysScroll(page, width);
      await screenshot(page, "extraction", width);

      // Accept one value and correct another: both recorded as HUMAN scores on the extraction.
      const review = page.getByRole("region", { name: "Review field" });
      await review.getByRole("button", { name: "Accept value" }).click();
      await review.getByRole("status").filter({ hasText: "Recorded acceptance of vendor" }).waitFor();
      await table.getByRole("row").filter({ hasText: "invoiceNumber" }).click();
      await review.getByLabel("Corrected value").fill(`INV-2024-00${width}`);
      await review.getByRole("button", { name: "Record correction" }).click();
      await review.getByRole("status").filter({ hasText: "Recorded correction of invoiceNumber" }).waitFor();
      const scores = await call(
        "GET",
        `/v1/scores?subjectType=extraction&subjectId=${extractionId}&size=100`,
      );
      expect(scores.content).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            name: "field.vendor",
            dataType: "BOOLEAN",
            value: true,
            source: "HUMAN",
          }),
          expect.objectContaining({
            name: "field.invoiceNumber",
            value: false,
            comment: JSON.stringify({ pointer: "/invoiceNumber", value: `INV-2024-00${width}` }),
          }),
        ]),
      );
    });

    it("searches a knowledge base and opens a citation in its document", async () => {
      await page.getByRole("link", { name: "Knowledge bases", exact: true }).click();
      await page.getByRole("link", { name: "Harbour manuals" }).click();
      await page.getByLabel("Search", { exact: true }).fill("crane inspection every morning");
      await page.getByLabel("Search", { exact: true }).press("Enter");
      const hits = page.getByRole("list", { name: "Hits" });
      await hits.getByRole("listitem").first().waitFor();
      expect(await hits.getByRole("listitem").first().textContent()).toContain("Cranes must be inspected");
      await hits.getByRole("link", { name: "Open citation" }).first().click();
      const citation = page.getByRole("region", { name: "Citation" });
      await citation.getByRole("heading", { name: "safety-manual.txt" }).waitFor();
      expect(await citation.locator("mark").textContent()).toContain("Cranes must be inspected");
      expect(new URL(page.url()).searchParams.get("citation")).toBeTruthy();
      await expectNoSidewaysScroll(page, width);
      await screenshot(page, "knowledge-base", width);
      // The citation is a deep link: loading it directly opens the same passage.
      await page.goto(page.url());
      await page
        .getByRole("region", { name: "Citation" })
        .getByRole("heading", { name: "safety-manual.txt" })
        .waitFor();
    });

    it("lists traces and shows a trace's spans as a tree with durations", async () => {
      await page.getByRole("link", { name: "Traces", exact: true }).click();
      const traces = page.getByRole("table", { name: "Traces" });
      await traces.waitFor();
      const row = traces.getByRole("row").filter({ hasText: `chat ${MODEL}` });
      const cells = await row.getByRole("cell").allTextContents();
      expect(cells[2]).toBe(MODEL);
      expect(cells[3]).toBe("9 in / 5 out");
      // Over a wider window, errors only: the failed vlm conversion, not the chat call.
      await page.getByLabel("Since").selectOption({ label: "Last 31 days" });
      await page.getByLabel("Status").selectOption({ label: "error" });
      await page.getByRole("search", { name: "Filter traces" }).getByRole("button").click();
      await traces.getByRole("row").filter({ hasText: "convert" }).first().waitFor();
      expect(
        await traces
          .getByRole("row")
          .filter({ hasText: `chat ${MODEL}` })
          .count(),
      ).toBe(0);
      await page.getByLabel("Status").selectOption({ label: "Any" });
      await page.getByRole("search", { name: "Filter traces" }).getByRole("button").click();
      await traces
        .getByRole("row")
        .filter({ hasText: `chat ${MODEL}` })
        .waitFor();
      await screenshot(page, "traces", width);
      await row.getByRole("link").click();
      const tree = page.getByRole("tree");
      await tree.waitFor();
      const detail = await call("GET", `/v1/traces/${traceId}`);
      const names: string[] = [];
      const walk = (spans: Array<{ name: string; children: unknown[] }>) => {
        for (const span of spans) {
          names.push(span.name);
          walk(span.children as Array<{ name: string; children: unknown[] }>);
        }
      };
      walk(detail.spans);
      expect(names.length).toBeGreaterThan(0);
      const items = tree.getByRole("treeitem");
      expect(await items.count()).toBe(names.length);
      for (const name of names)
        expect(await tree.getByText(name, { exact: true }).count(), name).toBeGreaterThan(0);
      expect(await items.first().textContent()).toMatch(/\d+(\.\d+)? (ms|s)/);
      await expectNoSidewaysScroll(page, width);
      await screenshot(page, "trace", width);
    });

    it("works an annotation queue: claim, see the subject, score, complete, until No items", async () => {
      const queue = await call("POST", "/v1/annotation-queues", {
        name: `Invoice review ${width}`,
        scoreConfigs: [
          { name: "accuracy", dataType: "NUMERIC", min: 0, max: 1 },
          { name: "verdict", dataType: "CATEGORICAL", categories: ["good", "bad"] },
          { name: "grounded", dataType: "BOOLEAN" },
        ],
      });
      await call("POST", `/v1/annotation-queues/${queue.id}/items`, {
        items: [
          { subjectType: "extraction", subjectId: extractionId },
          { subjectType: "trace", subjectId: traceId },
        ],
      });
      await page.getByRole("link", { name: "Annotation queues", exact: true }).click();
      await page.getByRole("link", { name: `Invoice review ${width}` }).click();
      for (const subject of [extractionId, traceId]) {
        await page.getByRole("button", { name: "Claim next" }).click();
        await page.getByRole("link", { name: subject }).waitFor();
        await page.getByLabel("accuracy").fill("0.75");
        await page.getByLabel("verdict").selectOption("good");
        await page.getByLabel("grounded").check();
        if (subject === extractionId) await screenshot(page, "annotation-queue", width);
        await page.getByRole("button", { name: "Complete" }).click();
        await page.getByRole("status").filter({ hasText: "Completed item" }).waitFor();
      }
      await page.getByRole("button", { name: "Claim next" }).click();
      await page.getByRole("status").filter({ hasText: "No items" }).waitFor();
      const items = await call("GET", `/v1/annotation-queues/${queue.id}/items?status=COMPLETED`);
      expect(items.content).toHaveLength(2);
      const scores = await call(
        "GET",
        `/v1/scores?subjectType=extraction&subjectId=${extractionId}&size=100`,
      );
      expect(scores.content).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ name: "accuracy", value: 0.75, source: "HUMAN" }),
          expect.objectContaining({ name: "verdict", value: "good" }),
          expect.objectContaining({ name: "grounded", value: true }),
        ]),
      );
      await expectNoSidewaysScroll(page, width);
    });

    it("signs out: the key is gone and the sign-in form is back", async () => {
      await page.getByRole("button", { name: "Sign out" }).click();
      await page.getByLabel("API key").waitFor();
      expect(await inPage<number>(page, "sessionStorage.length")).toBe(0);
      expect(await page.getByRole("navigation").count()).toBe(0);
      // A deep link while signed out asks for the key, then lands on the page.
      await signIn(page, `/console/traces/${traceId}`);
      await page.getByRole("tree").waitFor();
      await page.getByRole("button", { name: "Sign out" }).click();
    });

    it("sent no request to another origin", () => {
      // The browser's own PDF viewer (chrome: and extension pages showing the uploaded PDF) is not the network.
      const foreign = requests.filter(
        (url) => !url.startsWith(`${base}/`) && !/^(blob|data|chrome|chrome-extension):/.test(url),
      );
      expect(foreign).toEqual([]);
      expect(requests.some((url) => url.includes(tenant.keys.member))).toBe(false);
    });
  });
}
