// Peak RSS of converting one PDF with the built package (dist/), in a fresh process
// without the TypeScript loader: node bench/rss-child.mjs <file.pdf> [raw]
import { readFileSync } from "node:fs";

const [file, mode] = process.argv.slice(2);
const bytes = new Uint8Array(readFileSync(file));
let peak = process.memoryUsage().rss;
const timer = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss);
}, 5);
const started = performance.now();
let pages = 0;
if (mode === "raw") {
  const pdfjs = await import("pdfjs-dist/legacy/build/pdf.mjs");
  const doc = await pdfjs.getDocument({ data: bytes, isEvalSupported: false, verbosity: 0 }).promise;
  pages = doc.numPages;
  for (let n = 1; n <= doc.numPages; n++) {
    const page = await doc.getPage(n);
    await page.getTextContent();
    page.cleanup();
  }
  await doc.destroy();
} else {
  const { DocumentConverter } = await import("../dist/index.js");
  const converter = new DocumentConverter({ workers: 1 });
  const result = await converter.convert([{ bytes, filename: "big.pdf" }], { timeout: 600 });
  if (result.errors.length > 0) throw new Error(JSON.stringify(result.errors));
  pages = result.documents[0]?.metadata?.pageCount ?? 0;
  await converter.close();
}
const ms = performance.now() - started;
clearInterval(timer);
peak = Math.max(peak, process.memoryUsage().rss);
process.stdout.write(
  `${JSON.stringify({ mode: mode ?? "convert", pages, peakRssMb: Math.round(peak / 1048576), ms: Math.round(ms) })}\n`,
);
