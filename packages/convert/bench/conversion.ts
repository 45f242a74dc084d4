/**
 * Conversion benchmark, side by side in one run (docs/conversion.md, "Benchmark"):
 *   node --import tsx packages/convert/bench/conversion.ts
 * - fast pipeline vs raw pdfjs-dist text extraction on a generated 200-page PDF (pages/s)
 * - peak RSS converting a generated 500-page PDF (a fresh child process running dist/: build first)
 * - a generated 100-page DOCX vs raw mammoth (convertToHtml, and extractRawText for reference)
 * - fast pipeline vs raw pdfjs on a generated report PDF with headings and a ruled or unruled table on
 *   every page (the heading/table/ruling-line path, fidelity/writers.ts), and its peak RSS at 500 pages
 */
import { spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildLongDocx, buildTextPdf, makeTempDir } from "@groundwork/testkit";
import { type SpecBlock, TextMaker } from "../fidelity/spec.js";
import { writePdf } from "../fidelity/writers.js";
import { DocumentConverter } from "../src/index.js";

const RUNS = 7;

/** Per-iteration ratios of interleaved runs, so a load spike hits both sides of one ratio. */
function ratios(baseline: number[], ours: number[]): number[] {
  return ours.map((ms, i) => (baseline[i] ?? 0) / ms);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

async function rawPdfjs(bytes: Uint8Array): Promise<number> {
  const pdfjs = await import("pdfjs-dist/legacy/build/pdf.mjs");
  const started = performance.now();
  const doc = await pdfjs.getDocument({ data: bytes.slice(), isEvalSupported: false, verbosity: 0 }).promise;
  let chars = 0;
  for (let n = 1; n <= doc.numPages; n++) {
    const page = await doc.getPage(n);
    const content = await page.getTextContent();
    for (const item of content.items) if ("str" in item) chars += item.str.length;
    page.cleanup();
  }
  await doc.destroy();
  if (chars === 0) throw new Error("raw pdfjs read no text");
  return performance.now() - started;
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

/** Peak RSS in a fresh process running the built package (no TypeScript loader in the way). */
function rssOf(file: string, mode: "convert" | "raw"): { peakRssMb: number; ms: number; pages: number } {
  const child = spawnSync(
    process.execPath,
    [fileURLToPath(new URL("./rss-child.mjs", import.meta.url)), file, mode],
    {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
      cwd: fileURLToPath(new URL("..", import.meta.url)),
    },
  );
  return JSON.parse(child.stdout.trim().split("\n").pop() ?? "{}") as {
    peakRssMb: number;
    ms: number;
    pages: number;
  };
}

/** A report of about `pages` pages: each section a numbered heading, a paragraph and a table. */
async function buildStructuredPdf(pages: number): Promise<Uint8Array> {
  const t = new TextMaker(7);
  const blocks: SpecBlock[] = [];
  for (let s = 1; s <= pages * 3; s++) {
    blocks.push({ kind: "heading", level: 2, text: `${s} ${t.title()}` });
    blocks.push({ kind: "paragraph", text: t.paragraph(3) });
    blocks.push({ kind: "table", rows: t.table(5, 4), ruled: s % 2 === 0 });
  }
  return writePdf({ name: "bench", title: "Bench", blocks }, { headingSizes: [18, 14, 12], bodySize: 10.5 });
}

async function pagesOf(bytes: Uint8Array): Promise<number> {
  const pdfjs = await import("pdfjs-dist/legacy/build/pdf.mjs");
  const doc = await pdfjs.getDocument({ data: bytes.slice(), isEvalSupported: false, verbosity: 0 }).promise;
  const pages = doc.numPages;
  await doc.destroy();
  return pages;
}

async function main(): Promise<void> {
  const converter = new DocumentConverter({ workers: 1 });
  const pdf = buildTextPdf(200);
  // Warm both sides (module loading, JIT, worker start).
  await rawPdfjs(pdf);
  await converter.convert([{ bytes: pdf.slice(), filename: "warm.pdf" }]);

  const raw: number[] = [];
  const ours: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    raw.push(await rawPdfjs(pdf));
    ours.push(
      await timed(() =>
        converter.convert([{ bytes: pdf.slice(), filename: "bench.pdf" }], {
          options: { outputFormats: ["MD", "TEXT"] },
        }),
      ),
    );
  }
  const rawPps = 200 / (median(raw) / 1000);
  const oursPps = 200 / (median(ours) / 1000);

  // The structure path: headings, tables and ruling lines on every page, measured in the same run.
  const structured = await buildStructuredPdf(200);
  const structuredPages = await pagesOf(structured);
  await rawPdfjs(structured);
  await converter.convert([{ bytes: structured.slice(), filename: "warm.pdf" }]);
  const rawStructured: number[] = [];
  const oursStructured: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    rawStructured.push(await rawPdfjs(structured));
    oursStructured.push(
      await timed(() =>
        converter.convert([{ bytes: structured.slice(), filename: "bench.pdf" }], {
          options: { outputFormats: ["MD", "TEXT"] },
        }),
      ),
    );
  }

  const mammoth = (await import("mammoth")).default;
  const docx = await buildLongDocx(100);
  const buffer = Buffer.from(docx);
  await mammoth.convertToHtml({ buffer });
  await converter.convert([{ bytes: docx.slice(), filename: "warm.docx" }]);
  const rawHtml: number[] = [];
  const rawText: number[] = [];
  const oursDocx: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    rawHtml.push(await timed(() => mammoth.convertToHtml({ buffer })));
    rawText.push(await timed(() => mammoth.extractRawText({ buffer })));
    oursDocx.push(await timed(() => converter.convert([{ bytes: docx.slice(), filename: "bench.docx" }])));
  }
  await converter.close();

  if (!existsSync(fileURLToPath(new URL("../dist/index.js", import.meta.url)))) {
    throw new Error("Build the package first: cd packages/convert && npx tsup");
  }
  const temp = makeTempDir("groundwork-bench-");
  const file = join(temp.path, "500.pdf");
  writeFileSync(file, buildTextPdf(500));
  const rss = rssOf(file, "convert");
  const rawRss = rssOf(file, "raw");
  const structuredFile = join(temp.path, "500-structured.pdf");
  writeFileSync(structuredFile, await buildStructuredPdf(500));
  const structuredRss = rssOf(structuredFile, "convert");
  temp.remove();

  const report = {
    pdf200: {
      rawPdfjsPagesPerSecond: Math.round(rawPps),
      fastPipelinePagesPerSecond: Math.round(oursPps),
      ratio: Math.round((oursPps / rawPps) * 100) / 100,
      medianOfRatios: Math.round(median(ratios(raw, ours)) * 100) / 100,
      rawMedianMs: Math.round(median(raw)),
      fastMedianMs: Math.round(median(ours)),
    },
    pdfStructured: {
      pages: structuredPages,
      rawPdfjsMedianMs: Math.round(median(rawStructured)),
      fastMedianMs: Math.round(median(oursStructured)),
      ratio: Math.round((median(rawStructured) / median(oursStructured)) * 100) / 100,
      medianOfRatios: Math.round(median(ratios(rawStructured, oursStructured)) * 100) / 100,
      peakRssMbAt500Sections: structuredRss.peakRssMb,
      pagesAt500Sections: structuredRss.pages,
    },
    pdf500: {
      peakRssMb: rss.peakRssMb,
      ms: rss.ms,
      pagesPerSecond: Math.round(500 / (rss.ms / 1000)),
      rawPdfjsPeakRssMb: rawRss.peakRssMb,
      rawPdfjsMs: rawRss.ms,
    },
    docx100: {
      rawMammothHtmlMs: Math.round(median(rawHtml)),
      rawMammothTextMs: Math.round(median(rawText)),
      convertMs: Math.round(median(oursDocx)),
      ratioVsConvertToHtml: Math.round((median(rawHtml) / median(oursDocx)) * 100) / 100,
      medianOfRatiosVsConvertToHtml: Math.round(median(ratios(rawHtml, oursDocx)) * 100) / 100,
    },
  };
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
}

await main();
