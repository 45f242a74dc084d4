/**
 * The readers of issue #23 beside their baselines in one run (ratios, not absolute figures: the
 * machine is shared): `npx vitest bench --run --project convert readers`.
 * - DOCX: the XML reader vs mammoth's HTML conversion alone, and vs the old path (mammoth + HTML reader)
 * - PPTX: the XML reader vs the old regular-expression reader
 * - HTML: htmlparser2 vs the old hand tokenizer
 * - Markdown: markdown-it (with the walk to blocks) vs the old hand reader, and the parsers not
 *   taken (mdast-util-from-markdown + GFM table, marked's lexer) parsing alone (CP9)
 */
import { buildLongDocx, buildPptx, type PptxSlide } from "@groundwork/testkit";
import { marked } from "marked";
import { fromMarkdown } from "mdast-util-from-markdown";
import { gfmTableFromMarkdown } from "mdast-util-gfm-table";
import { gfmTable } from "micromark-extension-gfm-table";
import { bench, describe } from "vitest";
import { parseDocx } from "../src/formats/docx.js";
import { htmlToBlocks } from "../src/formats/html.js";
import { markdownToBlocks } from "../src/formats/markdown.js";
import type { ParseOptions } from "../src/formats/parse-context.js";
import { parsePptx } from "../src/formats/pptx.js";
import { DEFAULT_LIMITS } from "../src/limits.js";
import { parseDocx as legacyDocx } from "./legacy/docx.js";
import { htmlToBlocks as legacyHtml } from "./legacy/html.js";
import { markdownToBlocks as legacyMarkdown } from "./legacy/markdown.js";
import { parsePptx as legacyPptx } from "./legacy/pptx.js";

const options: ParseOptions = {
  filename: "bench",
  pipeline: "fast",
  embedImages: false,
  maxPages: undefined,
  limits: DEFAULT_LIMITS,
  expansionBudget: DEFAULT_LIMITS.maxExpandedBytes,
};
const runs = { iterations: 20, warmupIterations: 3, time: 0 };

const docx = await buildLongDocx(100);
const mammoth = (await import("mammoth")).default;

describe("DOCX, 100 pages", () => {
  bench(
    "groundwork: XML reader (saxes)",
    async () => {
      await parseDocx(docx, options);
    },
    runs,
  );
  bench(
    "baseline: mammoth.convertToHtml alone",
    async () => {
      await mammoth.convertToHtml({ buffer: Buffer.from(docx) });
    },
    runs,
  );
  bench(
    "baseline: old path (mammoth + hand HTML reader)",
    async () => {
      await legacyDocx(docx, options);
    },
    runs,
  );
});

const slides: PptxSlide[] = [];
for (let i = 1; i <= 200; i++)
  slides.push({
    title: `Slide ${i} &amp; more`,
    bullets: [`Point ${i}.1 about revenue`, `Point ${i}.2 about costs`, `Point ${i}.3 about people`],
    ...(i % 4 === 0
      ? {
          table: [
            ["Item", "Qty"],
            [`Widget ${i}`, String(i)],
          ],
        }
      : {}),
    notes: `Speaker notes for slide ${i}.`,
  });
const pptx = await buildPptx(slides);

describe("PPTX, 200 slides", () => {
  bench(
    "groundwork: XML reader (saxes)",
    async () => {
      await parsePptx(pptx, options);
    },
    runs,
  );
  bench(
    "baseline: old regular-expression reader",
    async () => {
      await legacyPptx(pptx, options);
    },
    runs,
  );
});

const htmlParts: string[] = ["<!doctype html><html><head><title>Bench</title></head><body>"];
for (let i = 1; i <= 400; i++)
  htmlParts.push(
    `<h2>Section ${i}</h2><p>The quick <b>brown</b> fox &mdash; caf&eacute; &amp; cr&egrave;me, <a href="#x">link ${i}</a>.</p>`,
    `<ul><li>one ${i}</li><li>two<ul><li>nested ${i}</li></ul></li></ul>`,
    `<table><tr><th>Item</th><th>Qty</th></tr><tr><td>Widget ${i}</td><td>${i}</td></tr></table>`,
  );
htmlParts.push("</body></html>");
const html = htmlParts.join("\n");

describe("HTML, 400 sections (~130 KB)", () => {
  bench(
    "groundwork: htmlparser2",
    () => {
      htmlToBlocks(html);
    },
    runs,
  );
  bench(
    "baseline: old hand tokenizer",
    () => {
      legacyHtml(html);
    },
    runs,
  );
});

const markdownParts: string[] = [];
for (let i = 1; i <= 400; i++)
  markdownParts.push(
    `## Section ${i}\n\nThe quick **brown** fox _jumps_ over \`code\` and [link ${i}](https://example.com/${i}).\nA second line &amp; caf&eacute;.\n`,
    `- one ${i}\n- two\n  - nested ${i}\n\n| Item | Qty |\n| --- | --- |\n| Widget ${i} | ${i} |\n\n\`\`\`ts\nconst x = ${i};\n\`\`\`\n`,
  );
const markdown = markdownParts.join("\n");

describe(`Markdown, 400 sections (~${Math.round(markdown.length / 1024)} KB)`, () => {
  bench(
    "groundwork: markdown-it + walk to blocks",
    () => {
      markdownToBlocks(markdown);
    },
    runs,
  );
  bench(
    "baseline: old hand reader",
    () => {
      legacyMarkdown(markdown);
    },
    runs,
  );
  bench(
    "not taken: marked lexer alone",
    () => {
      marked.lexer(markdown);
    },
    runs,
  );
  bench(
    "not taken: mdast-util-from-markdown + GFM table alone",
    () => {
      fromMarkdown(markdown, { extensions: [gfmTable()], mdastExtensions: [gfmTableFromMarkdown()] });
    },
    { iterations: 3, warmupIterations: 1, time: 0 },
  );
});
