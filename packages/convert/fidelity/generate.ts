/**
 * Generates the fidelity corpus (dev-time): every document is written from a spec whose ground-truth
 * Markdown is known by construction, in packages/convert/fidelity/corpus/<format>/<name>.<ext> beside
 * <name>.truth.md. Seeded, so a re-run writes the same structure.
 *   npx tsx packages/convert/fidelity/generate.ts
 * The "lo-" PDFs are the DOCX specs rendered by LibreOffice headless (`soffice`, Debian's
 * libreoffice-writer-nogui); without it they are kept as committed.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type DocSpec, groundTruth, type SpecBlock, TextMaker } from "./spec.js";
import {
  type SheetSpec,
  type SlideSpec,
  writeDocx,
  writeHtml,
  writeMarkdown,
  writePdf,
  writePptx,
  writeXlsx,
} from "./writers.js";

const CORPUS = fileURLToPath(new URL("./corpus/", import.meta.url));

interface ReportOptions {
  sections: number;
  numbered: boolean;
  table?: "ruled" | "unruled";
  lists?: boolean;
  rtl?: "ar" | "he";
}

/** A report: numbered sections and subsections, paragraphs, lists and tables. */
function report(name: string, seed: number, options: ReportOptions): DocSpec {
  const t = new TextMaker(seed);
  const title = t.title(4);
  const blocks: SpecBlock[] = [
    { kind: "heading", level: 1, text: title },
    { kind: "paragraph", text: t.paragraph() },
  ];
  for (let s = 1; s <= options.sections; s++) {
    blocks.push({ kind: "heading", level: 2, text: options.numbered ? `${s} ${t.title()}` : t.title() });
    blocks.push({ kind: "paragraph", text: t.paragraph() });
    const subsections = t.int(1, 2);
    for (let u = 1; u <= subsections; u++) {
      blocks.push({
        kind: "heading",
        level: 3,
        text: options.numbered ? `${s}.${u} ${t.title()}` : t.title(),
      });
      blocks.push({ kind: "paragraph", text: t.paragraph() });
      if (options.rtl !== undefined && u === 1)
        blocks.push({ kind: "rtl", lang: options.rtl, text: t.rtl(options.rtl, t.int(12, 30)) });
      if (options.lists === true && u === subsections)
        blocks.push({
          kind: "list",
          ordered: s % 2 === 0,
          items: Array.from({ length: t.int(2, 4) }, () => t.sentence(4, 9)),
        });
      if (options.table !== undefined && (s + u) % 2 === 0)
        blocks.push({
          kind: "table",
          rows: t.table(t.int(3, 6), t.int(3, 5)),
          ruled: options.table === "ruled",
        });
      blocks.push({ kind: "paragraph", text: t.paragraph(t.int(1, 3)) });
    }
  }
  return { name, title, blocks };
}

/** A right-to-left document: headings and paragraphs in Arabic or Hebrew, one English note. */
function rtlDoc(name: string, seed: number, lang: "ar" | "he"): DocSpec {
  const t = new TextMaker(seed);
  const title = t.rtl(lang, 3);
  const blocks: SpecBlock[] = [{ kind: "rtl", lang, text: title, heading: 1 }];
  for (let s = 0; s < 3; s++) {
    blocks.push({ kind: "rtl", lang, text: t.rtl(lang, 3), heading: 2 });
    for (let p = 0; p < 2; p++) blocks.push({ kind: "rtl", lang, text: t.rtl(lang, t.int(15, 40)) });
  }
  blocks.push({ kind: "paragraph", text: t.paragraph(2) });
  return { name, title, blocks };
}

function mergedCells(name: string, seed: number): DocSpec {
  const t = new TextMaker(seed);
  const title = t.title(3);
  // Row 1 spans two columns at column 1; column 0 spans three rows from row 2.
  const rows = t.table(6, 4);
  rows[1] = [rows[1]?.[0] ?? "", `${t.title(2)}`, "", rows[1]?.[3] ?? ""];
  for (const r of [3, 4]) (rows[r] as string[])[0] = "";
  const second = t.table(4, 5);
  (second[0] as string[])[2] = "";
  return {
    name,
    title,
    blocks: [
      { kind: "heading", level: 1, text: title },
      { kind: "paragraph", text: t.paragraph() },
      {
        kind: "table",
        ruled: true,
        rows,
        merges: [
          { row: 1, col: 1, rowSpan: 1, colSpan: 2 },
          { row: 2, col: 0, rowSpan: 3, colSpan: 1 },
        ],
      },
      { kind: "heading", level: 2, text: t.title() },
      { kind: "paragraph", text: t.paragraph() },
      { kind: "table", ruled: true, rows: second, merges: [{ row: 0, col: 1, rowSpan: 1, colSpan: 2 }] },
    ],
  };
}

function textBoxes(name: string, seed: number): DocSpec {
  const t = new TextMaker(seed);
  const title = t.title(3);
  const blocks: SpecBlock[] = [{ kind: "heading", level: 1, text: title }];
  for (let i = 0; i < 3; i++) {
    blocks.push({ kind: "heading", level: 2, text: t.title() });
    blocks.push({ kind: "paragraph", text: t.paragraph() });
    blocks.push({ kind: "textbox", text: t.sentence(8, 14) });
  }
  return { name, title, blocks };
}

function equations(name: string, seed: number): DocSpec {
  const t = new TextMaker(seed);
  const title = t.title(3);
  const latex = ["x^{2}+y^{2}=z^{2}", "\\frac{a}{b}", "\\sqrt{n}", "\\sum_{i=1}^{k}i"];
  const blocks: SpecBlock[] = [{ kind: "heading", level: 1, text: title }];
  for (const equation of latex) {
    blocks.push({ kind: "paragraph", text: t.paragraph(2) });
    blocks.push({ kind: "equation", latex: equation, before: t.sentence(4, 8) });
  }
  return { name, title, blocks };
}

function simpleDoc(name: string, seed: number, html: boolean): DocSpec {
  const t = new TextMaker(seed);
  const spec = report(name, seed, { sections: 3, numbered: false, lists: true, table: "ruled" });
  if (html) {
    // Letters HTML writes as named entities, so the corpus shows whether they are decoded.
    spec.blocks.splice(2, 0, {
      kind: "paragraph",
      text: `Café naïve déjà vu — Müller and Jürgen paid ½ of the fee at the résumé desk ${t.sentence()}`,
    });
  }
  return spec;
}

function slides(seed: number, kind: "bullets" | "charts" | "tables"): { title: string; slides: SlideSpec[] } {
  const t = new TextMaker(seed);
  const out: SlideSpec[] = [];
  for (let i = 0; i < 5; i++) {
    const slide: SlideSpec = { title: t.title() };
    if (kind === "bullets" || i === 0) {
      slide.bullets = Array.from({ length: t.int(2, 4) }, (_, j) =>
        j % 2 === 0 ? t.sentence(4, 8) : `${t.sentence(3, 6)}\n${t.sentence(3, 6)}`,
      );
    }
    if (kind === "tables" && i > 0) slide.table = t.table(t.int(3, 5), t.int(3, 4));
    if (kind === "charts" && i > 0) {
      const categories = Array.from({ length: t.int(3, 5) }, () => t.title(1));
      const type = (["bar", "line", "pie"] as const)[i % 3] as "bar" | "line" | "pie";
      const seriesCount = type === "pie" ? 1 : t.int(1, 3);
      slide.chart = {
        title: t.title(3),
        type,
        categories,
        series: Array.from({ length: seriesCount }, () => ({
          name: t.title(1),
          values: categories.map(() => t.int(1, 500)),
        })),
      };
    }
    out.push(slide);
  }
  return { title: t.title(), slides: out };
}

function slidesTruth(name: string, deck: { title: string; slides: SlideSpec[] }): DocSpec {
  const blocks: SpecBlock[] = [];
  for (const slide of deck.slides) {
    blocks.push({ kind: "heading", level: 2, text: slide.title });
    if (slide.bullets !== undefined)
      blocks.push({ kind: "list", ordered: false, items: slide.bullets.map((b) => b.replace(/\n/g, " ")) });
    if (slide.table !== undefined) blocks.push({ kind: "table", rows: slide.table, ruled: true });
    if (slide.chart !== undefined) {
      const { chart } = slide;
      blocks.push({ kind: "paragraph", text: chart.title });
      blocks.push({
        kind: "table",
        ruled: true,
        rows: [
          ["", ...chart.series.map((s) => s.name)],
          ...chart.categories.map((c, i) => [c, ...chart.series.map((s) => String(s.values[i]))]),
        ],
      });
    }
  }
  return { name, title: deck.title, blocks };
}

function sheets(seed: number, kind: "regions" | "workbook" | "sparse"): SheetSpec[] {
  const t = new TextMaker(seed);
  const region = (row: number, col: number, rows: number, cols: number) => ({
    row,
    col,
    rows: t.table(rows, cols).map((r, i) => r.map((cell, j) => (i > 0 && j > 0 ? Number(cell) : cell))),
  });
  if (kind === "regions")
    return [
      { name: t.title(1), regions: [region(1, 1, 5, 3), region(1, 6, 4, 3), region(9, 1, 6, 4)] },
      { name: t.title(2), regions: [region(2, 2, 4, 2), region(8, 2, 3, 5)] },
    ];
  if (kind === "workbook")
    return Array.from({ length: 3 }, () => ({
      name: t.title(2),
      regions: [region(1, 1, t.int(4, 9), t.int(3, 6))],
    }));
  return [
    {
      name: t.title(1),
      regions: [region(1, 1, 6, 4)],
      farCell: { row: 200_000, col: 300, value: t.title(2) },
    },
  ];
}

function sheetsTruth(name: string, workbook: SheetSpec[]): DocSpec {
  const blocks: SpecBlock[] = [];
  for (const sheet of workbook) {
    blocks.push({ kind: "heading", level: 2, text: sheet.name });
    const regions = [...sheet.regions].sort((a, b) => a.row - b.row || a.col - b.col);
    for (const region of regions)
      blocks.push({ kind: "table", ruled: false, rows: region.rows.map((r) => r.map(String)) });
    if (sheet.farCell !== undefined)
      blocks.push({ kind: "table", ruled: false, rows: [[sheet.farCell.value]] });
  }
  return { name, title: name, blocks };
}

/** `generate.ts <file>` rewrites that one file (and its truth) only, leaving the committed others. */
const only = process.argv[2];

function write(format: string, file: string, bytes: Uint8Array | string, truth: DocSpec): void {
  if (only !== undefined && file !== only) return;
  const dir = join(CORPUS, format);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, file), bytes);
  writeFileSync(join(dir, `${file.replace(/\.[a-z]+$/, "")}.truth.md`), groundTruth(truth));
}

const HEADINGS_BIG: [number, number, number] = [20, 15, 12.5];

async function main(): Promise<void> {
  // PDF, typeset by pdfkit.
  const pdfs: Array<[string, DocSpec, [number, number, number]]> = [
    [
      "numbered-report",
      report("numbered-report", 11, { sections: 4, numbered: true, lists: true }),
      HEADINGS_BIG,
    ],
    ["bold-headings", report("bold-headings", 12, { sections: 3, numbered: true }), [10.5, 10.5, 10.5]],
    [
      "ruled-tables",
      report("ruled-tables", 13, { sections: 3, numbered: true, table: "ruled" }),
      HEADINGS_BIG,
    ],
    [
      "unruled-tables",
      report("unruled-tables", 14, { sections: 3, numbered: false, table: "unruled" }),
      HEADINGS_BIG,
    ],
    ["hebrew", rtlDoc("hebrew", 15, "he"), HEADINGS_BIG],
    ["arabic", rtlDoc("arabic", 16, "ar"), HEADINGS_BIG],
    [
      "long-report",
      report("long-report", 17, { sections: 9, numbered: true, lists: true, table: "ruled", rtl: "he" }),
      [16, 13, 11.5],
    ],
  ];
  for (const [name, spec, sizes] of pdfs) {
    write("pdf", `${name}.pdf`, await writePdf(spec, { headingSizes: sizes, bodySize: 10.5 }), spec);
  }
  // Page furniture: a running header and "Page n of N" footers, which are not content (Docling drops them too).
  const running = report("running-headers", 18, {
    sections: 6,
    numbered: true,
    lists: true,
    table: "unruled",
  });
  write(
    "pdf",
    "running-headers.pdf",
    await writePdf(running, { headingSizes: [16, 13, 11.5], bodySize: 10.5, runningHeader: running.title }),
    running,
  );

  // DOCX, written by docx.
  const docxSpecs: DocSpec[] = [
    report("report", 21, { sections: 4, numbered: true, lists: true, table: "ruled" }),
    mergedCells("merged-cells", 22),
    textBoxes("text-boxes", 23),
    equations("equations", 24),
    rtlDoc("rtl-arabic", 25, "ar"),
    report("mixed-rtl", 26, { sections: 3, numbered: false, rtl: "he", table: "ruled" }),
  ];
  for (const spec of docxSpecs) write("docx", `${spec.name}.docx`, await writeDocx(spec), spec);

  // PDF rendered from DOCX by LibreOffice: what Word-style documents look like once printed.
  const office = spawnSync("soffice", ["--version"], { encoding: "utf8" });
  if (office.status === 0) {
    const loSpecs: DocSpec[] = [
      report("lo-report", 31, { sections: 4, numbered: true, lists: true, table: "ruled" }),
      rtlDoc("lo-hebrew", 32, "he"),
      report("lo-mixed-rtl", 33, { sections: 3, numbered: true, rtl: "ar", table: "ruled" }),
    ];
    const temp = mkdtempSync(join(tmpdir(), "fidelity-lo-"));
    try {
      for (const spec of loSpecs) writeFileSync(join(temp, `${spec.name}.docx`), await writeDocx(spec));
      const run = spawnSync(
        "soffice",
        [
          `-env:UserInstallation=file://${temp}/profile`,
          "--headless",
          "--convert-to",
          "pdf",
          "--outdir",
          temp,
          ...loSpecs.map((s) => join(temp, `${s.name}.docx`)),
        ],
        { encoding: "utf8", timeout: 300_000 },
      );
      if (run.status !== 0) throw new Error(`soffice failed: ${run.stderr}`);
      for (const spec of loSpecs) {
        const pdf = join(temp, `${spec.name}.pdf`);
        if (!existsSync(pdf)) throw new Error(`soffice wrote no ${spec.name}.pdf`);
        write("pdf", `${spec.name}.pdf`, "", spec);
        copyFileSync(pdf, join(CORPUS, "pdf", `${spec.name}.pdf`));
      }
    } finally {
      rmSync(temp, { recursive: true, force: true });
    }
  } else {
    process.stderr.write("soffice not found: the lo-*.pdf files are left as committed\n");
  }

  // PPTX, written by pptxgenjs.
  for (const [name, seed, kind] of [
    ["bullets", 41, "bullets"],
    ["charts", 42, "charts"],
    ["tables", 43, "tables"],
  ] as const) {
    const deck = slides(seed, kind);
    write("pptx", `${name}.pptx`, await writePptx(deck.title, deck.slides), slidesTruth(name, deck));
  }

  // XLSX, written by exceljs.
  for (const [name, seed, kind] of [
    ["multi-region", 51, "regions"],
    ["workbook", 52, "workbook"],
    ["sparse-range", 53, "sparse"],
  ] as const) {
    const workbook = sheets(seed, kind);
    write("xlsx", `${name}.xlsx`, await writeXlsx(workbook), sheetsTruth(name, workbook));
  }

  // HTML and Markdown.
  for (const spec of [
    simpleDoc("article", 61, true),
    report("tables", 62, { sections: 3, numbered: true, table: "ruled" }),
    rtlDoc("rtl", 63, "ar"),
  ]) {
    write("html", `${spec.name}.html`, writeHtml(spec), spec);
  }
  for (const spec of [
    simpleDoc("setext", 71, false),
    report("tables", 72, { sections: 3, numbered: false, table: "ruled", lists: true }),
    rtlDoc("rtl", 73, "he"),
  ]) {
    write("md", `${spec.name}.md`, writeMarkdown(spec), spec);
  }
}

await main();
