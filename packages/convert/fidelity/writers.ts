/**
 * Writes a corpus spec in each input format with a real authoring library (dev-time only):
 * PDF with pdfkit, DOCX with docx, PPTX with pptxgenjs, XLSX with exceljs; HTML and Markdown by hand
 * in deliberately varied styles (setext headings, entities, unpadded tables).
 */
import {
  AlignmentType,
  Document,
  Math as DocxMath,
  HeadingLevel,
  MathFraction,
  MathRadical,
  MathRun,
  MathSum,
  MathSuperScript,
  Packer,
  Paragraph,
  Table,
  TableCell,
  TableRow,
  Textbox,
  TextRun,
  VerticalMergeType,
  WidthType,
} from "docx";
import ExcelJS from "exceljs";
import PDFDocument from "pdfkit";
import PptxGenJS from "pptxgenjs";
import type { DocSpec, SpecBlock } from "./spec.js";

const FONTS = "/usr/share/fonts/truetype/dejavu";

export interface PdfStyle {
  /** Heading font sizes by level (1–3); equal to the body size for bold-only headings. */
  headingSizes: [number, number, number];
  bodySize: number;
  /** A running header (this text, top right) and footer (`Page n of N`) on every page: not content. */
  runningHeader?: string;
}

/** PDF through pdfkit, laid out like a report: flowing paragraphs, tables drawn cell by cell. */
export async function writePdf(spec: DocSpec, style: PdfStyle): Promise<Uint8Array> {
  const running = style.runningHeader;
  const doc = new PDFDocument({
    size: "A4",
    margin: 64,
    info: { Title: spec.title },
    ...(running === undefined ? {} : { bufferPages: true }),
  });
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve) => doc.on("end", () => resolve()));
  doc.registerFont("body", `${FONTS}/DejaVuSerif.ttf`);
  doc.registerFont("bold", `${FONTS}/DejaVuSans-Bold.ttf`);
  doc.registerFont("sans", `${FONTS}/DejaVuSans.ttf`);
  const left = 64;
  const width = doc.page.width - 128;
  const bottom = doc.page.height - 64;
  const ensure = (height: number) => {
    if (doc.y + height > bottom) doc.addPage();
  };

  /** Right-to-left text the way typesetters write it: words placed from the right margin, emitted left to right. */
  const rtlLines = (text: string, font: string, size: number) => {
    doc.font(font).fontSize(size);
    const space = doc.widthOfString(" ");
    const lines: string[][] = [[]];
    let used = 0;
    for (const word of text.split(" ")) {
      const w = doc.widthOfString(word);
      const line = lines[lines.length - 1] as string[];
      if (line.length > 0 && used + space + w > width) {
        lines.push([word]);
        used = w;
      } else {
        used += (line.length > 0 ? space : 0) + w;
        line.push(word);
      }
    }
    for (const line of lines) {
      ensure(size * 1.5);
      const y = doc.y;
      let x = left + width;
      const placed: Array<{ word: string; x: number }> = [];
      for (const word of line) {
        x -= doc.widthOfString(word);
        placed.push({ word, x });
        x -= space;
      }
      for (const { word, x: at } of placed.reverse()) doc.text(word, at, y, { lineBreak: false });
      doc.x = left;
      doc.y = y + size * 1.45;
    }
    doc.y += size * 0.6;
  };

  for (const block of spec.blocks) {
    switch (block.kind) {
      case "heading": {
        const size = style.headingSizes[Math.min(3, block.level) - 1] as number;
        ensure(size * 4);
        doc.y += size * 0.6;
        doc.font("bold").fontSize(size).text(block.text, left, doc.y, { width });
        doc.y += size * 0.3;
        break;
      }
      case "paragraph":
        doc.font("body").fontSize(style.bodySize).text(block.text, left, doc.y, { width });
        doc.y += style.bodySize * 0.7;
        break;
      case "list":
        doc.font("body").fontSize(style.bodySize);
        block.items.forEach((item, i) => {
          doc.text(`${block.ordered ? `${i + 1}.` : "•"} ${item}`, left + 12, doc.y, { width: width - 12 });
        });
        doc.y += style.bodySize * 0.7;
        break;
      case "table": {
        const cols = Math.max(...block.rows.map((row) => row.length));
        const colWidth = width / cols;
        const rowHeight = style.bodySize * 1.9;
        ensure(rowHeight * Math.min(block.rows.length, 6));
        let y = doc.y + 4;
        block.rows.forEach((row, r) => {
          if (y + rowHeight > bottom) {
            doc.addPage();
            y = doc.y;
          }
          for (let c = 0; c < cols; c++) {
            const x = left + c * colWidth;
            if (block.ruled) doc.lineWidth(0.6).rect(x, y, colWidth, rowHeight).stroke();
            const text = row[c] ?? "";
            if (text === "") continue;
            // Shrunk to fit its cell, as a typesetter would: text running into the next column is no layout.
            doc.font(r === 0 ? "bold" : "sans").fontSize(style.bodySize - 1);
            const fits = Math.min(1, (colWidth - 12) / doc.widthOfString(text));
            doc
              .fontSize((style.bodySize - 1) * fits)
              .text(text, x + 4, y + rowHeight * 0.25, { width: colWidth - 8, lineBreak: false });
          }
          y += rowHeight;
        });
        doc.x = left;
        doc.y = y + style.bodySize;
        break;
      }
      case "rtl":
        if (block.heading !== undefined) {
          const size = style.headingSizes[Math.min(3, block.heading) - 1] as number;
          ensure(size * 4);
          doc.y += size * 0.6;
          rtlLines(block.text, "bold", size);
        } else rtlLines(block.text, "sans", style.bodySize);
        break;
      case "equation":
      case "textbox":
        throw new Error(`${block.kind} is a DOCX-only block`);
    }
  }
  if (running !== undefined) {
    // Drawn last, as many typesetters do: in the content stream after the page's body text.
    const range = doc.bufferedPageRange();
    for (let i = range.start; i < range.start + range.count; i++) {
      doc.switchToPage(i);
      const margins = doc.page.margins;
      const saved = margins.bottom;
      margins.bottom = 0;
      doc.font("sans").fontSize(8.5).text(running, left, 36, { width, align: "right", lineBreak: false });
      doc
        .font("sans")
        .fontSize(8.5)
        .text(`Page ${i + 1} of ${range.count}`, left, doc.page.height - 44, {
          width,
          align: "center",
          lineBreak: false,
        });
      margins.bottom = saved;
    }
  }
  doc.end();
  await ended;
  return new Uint8Array(Buffer.concat(chunks));
}

const HEADINGS = [HeadingLevel.HEADING_1, HeadingLevel.HEADING_2, HeadingLevel.HEADING_3] as const;

function docxTable(block: Extract<SpecBlock, { kind: "table" }>): Table {
  const merges = block.merges ?? [];
  const covering = (r: number, c: number) =>
    merges.find((m) => r >= m.row && r < m.row + m.rowSpan && c >= m.col && c < m.col + m.colSpan);
  const rows = block.rows.map((row, r) => {
    const cells: TableCell[] = [];
    for (let c = 0; c < row.length; c++) {
      const merge = covering(r, c);
      // A cell covered from the left is part of the spanning cell; one covered from above continues it.
      if (merge !== undefined && c !== merge.col) continue;
      const text = merge !== undefined && merge.row !== r ? "" : (row[c] ?? "");
      cells.push(
        new TableCell({
          children: [new Paragraph({ children: [new TextRun({ text, bold: r === 0 })] })],
          ...(merge !== undefined && merge.colSpan > 1 ? { columnSpan: merge.colSpan } : {}),
          ...(merge !== undefined && merge.rowSpan > 1
            ? { verticalMerge: merge.row === r ? VerticalMergeType.RESTART : VerticalMergeType.CONTINUE }
            : {}),
        }),
      );
    }
    return new TableRow({ children: cells });
  });
  return new Table({ rows, width: { size: 100, type: WidthType.PERCENTAGE } });
}

/** The LaTeX the corpus uses, built as OMML with docx's math classes. */
function omml(latex: string): DocxMath {
  const equations: Record<string, DocxMath> = {
    "x^{2}+y^{2}=z^{2}": new DocxMath({
      children: [
        new MathSuperScript({ children: [new MathRun("x")], superScript: [new MathRun("2")] }),
        new MathRun("+"),
        new MathSuperScript({ children: [new MathRun("y")], superScript: [new MathRun("2")] }),
        new MathRun("="),
        new MathSuperScript({ children: [new MathRun("z")], superScript: [new MathRun("2")] }),
      ],
    }),
    "\\frac{a}{b}": new DocxMath({
      children: [new MathFraction({ numerator: [new MathRun("a")], denominator: [new MathRun("b")] })],
    }),
    "\\sqrt{n}": new DocxMath({ children: [new MathRadical({ children: [new MathRun("n")] })] }),
    "\\sum_{i=1}^{k}i": new DocxMath({
      children: [
        new MathSum({
          children: [new MathRun("i")],
          subScript: [new MathRun("i=1")],
          superScript: [new MathRun("k")],
        }),
      ],
    }),
  };
  const equation = equations[latex];
  if (equation === undefined) throw new Error(`no OMML for ${latex}`);
  return equation;
}

export async function writeDocx(spec: DocSpec): Promise<Uint8Array> {
  const children: Array<Paragraph | Table | Textbox> = [];
  for (const block of spec.blocks) {
    switch (block.kind) {
      case "heading":
        children.push(
          new Paragraph({
            heading: HEADINGS[Math.min(3, block.level) - 1] ?? HeadingLevel.HEADING_3,
            children: [new TextRun(block.text)],
          }),
        );
        break;
      case "paragraph":
        children.push(new Paragraph({ children: [new TextRun(block.text)] }));
        break;
      case "list":
        for (const [i, item] of block.items.entries()) {
          children.push(
            new Paragraph({
              children: [new TextRun(block.ordered ? `${i + 1}. ${item}` : item)],
              ...(block.ordered ? {} : { bullet: { level: 0 } }),
            }),
          );
        }
        break;
      case "table":
        children.push(docxTable(block));
        children.push(new Paragraph({ children: [] }));
        break;
      case "rtl":
        children.push(
          new Paragraph({
            ...(block.heading === undefined
              ? {}
              : { heading: HEADINGS[Math.min(3, block.heading) - 1] ?? HeadingLevel.HEADING_3 }),
            bidirectional: true,
            alignment: AlignmentType.RIGHT,
            children: [
              new TextRun({ text: block.text, rightToLeft: true, language: { bidirectional: block.lang } }),
            ],
          }),
        );
        break;
      case "equation":
        children.push(new Paragraph({ children: [new TextRun(`${block.before} `), omml(block.latex)] }));
        break;
      case "textbox":
        children.push(
          new Textbox({
            style: { width: "300pt", height: "60pt" },
            children: [new Paragraph({ children: [new TextRun(block.text)] })],
          }),
        );
        break;
    }
  }
  const doc = new Document({ title: spec.title, sections: [{ children }] });
  return new Uint8Array(await Packer.toBuffer(doc));
}

export interface SlideSpec {
  title: string;
  /** Bullet items; an item with `\n` is one paragraph with soft line breaks (`<a:br/>`). */
  bullets?: string[];
  table?: string[][];
  chart?: {
    title: string;
    type: "bar" | "line" | "pie";
    categories: string[];
    series: Array<{ name: string; values: number[] }>;
  };
}

export async function writePptx(title: string, slides: SlideSpec[]): Promise<Uint8Array> {
  const pptx = new PptxGenJS();
  pptx.title = title;
  pptx.defineSlideMaster({
    title: "MASTER",
    objects: [
      { placeholder: { options: { name: "title", type: "title", x: 0.5, y: 0.2, w: 9, h: 0.9 }, text: "" } },
    ],
  });
  for (const spec of slides) {
    const slide = pptx.addSlide({ masterName: "MASTER" });
    slide.addText(spec.title, { placeholder: "title" });
    if (spec.bullets !== undefined) {
      const runs = spec.bullets.flatMap((item) =>
        item.split("\n").map((line, i, lines) => ({
          text: line,
          options: {
            ...(i === 0 ? { bullet: true } : { softBreakBefore: true }),
            ...(i === lines.length - 1 ? { breakLine: true } : {}),
          },
        })),
      );
      slide.addText(runs, { x: 0.6, y: 1.3, w: 8.5, h: 3.5, fontSize: 18 });
    }
    if (spec.table !== undefined) {
      slide.addTable(
        spec.table.map((row) => row.map((text) => ({ text }))),
        { x: 0.6, y: spec.bullets === undefined ? 1.3 : 4.2, w: 8.5, fontSize: 12 },
      );
    }
    if (spec.chart !== undefined) {
      const { chart } = spec;
      slide.addChart(
        chart.type === "bar"
          ? pptx.ChartType.bar
          : chart.type === "line"
            ? pptx.ChartType.line
            : pptx.ChartType.pie,
        chart.series.map((s) => ({ name: s.name, labels: chart.categories, values: s.values })),
        { x: 0.6, y: 1.3, w: 8.5, h: 4, showTitle: true, title: chart.title, showLegend: true },
      );
    }
  }
  const out = (await pptx.write({ outputType: "uint8array" })) as Uint8Array;
  return out;
}

export interface SheetSpec {
  name: string;
  /** Table regions, each placed at its 1-based top-left cell. */
  regions: Array<{ row: number; col: number; rows: Array<Array<string | number>> }>;
  /** A cell far away that only widens the declared range (`dimension`). */
  farCell?: { row: number; col: number; value: string };
}

export async function writeXlsx(sheets: SheetSpec[]): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  for (const sheet of sheets) {
    const ws = workbook.addWorksheet(sheet.name);
    for (const region of sheet.regions) {
      region.rows.forEach((row, r) => {
        row.forEach((value, c) => {
          ws.getCell(region.row + r, region.col + c).value = value;
        });
      });
    }
    if (sheet.farCell !== undefined)
      ws.getCell(sheet.farCell.row, sheet.farCell.col).value = sheet.farCell.value;
  }
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}

const ENTITIES: Array<[RegExp, string]> = [
  [/&/g, "&amp;"],
  [/</g, "&lt;"],
  [/é/g, "&eacute;"],
  [/—/g, "&mdash;"],
  [/ü/g, "&uuml;"],
  [/½/g, "&frac12;"],
];

function htmlText(text: string): string {
  return ENTITIES.reduce((out, [pattern, entity]) => out.replace(pattern, entity), text);
}

/** HTML as a CMS would write it: a navigation-free article, entities for non-ASCII letters, `dir="rtl"` paragraphs. */
export function writeHtml(spec: DocSpec): string {
  const body: string[] = [];
  for (const block of spec.blocks) {
    switch (block.kind) {
      case "heading":
        body.push(`<h${block.level}>${htmlText(block.text)}</h${block.level}>`);
        break;
      case "paragraph":
        body.push(`<p>${htmlText(block.text)}</p>`);
        break;
      case "list": {
        const tag = block.ordered ? "ol" : "ul";
        body.push(`<${tag}>${block.items.map((item) => `<li>${htmlText(item)}</li>`).join("")}</${tag}>`);
        break;
      }
      case "table": {
        const [header = [], ...rows] = block.rows;
        body.push(
          `<table${block.ruled ? ' border="1"' : ""}><thead><tr>${header.map((c) => `<th>${htmlText(c)}</th>`).join("")}</tr></thead><tbody>${rows
            .map((row) => `<tr>${row.map((c) => `<td>${htmlText(c)}</td>`).join("")}</tr>`)
            .join("\n")}</tbody></table>`,
        );
        break;
      }
      case "rtl":
        body.push(
          block.heading === undefined
            ? `<p dir="rtl" lang="${block.lang}">${block.text}</p>`
            : `<h${block.heading} dir="rtl">${block.text}</h${block.heading}>`,
        );
        break;
      case "equation":
      case "textbox":
        throw new Error(`${block.kind} is a DOCX-only block`);
    }
  }
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${htmlText(spec.title)}</title>
<style>body { font-family: serif; }</style></head>
<body><article>\n${body.join("\n")}\n</article></body></html>\n`;
}

/** Markdown in the styles people write: setext for levels 1–2, `*` bullets, tables without outer pipes. */
export function writeMarkdown(spec: DocSpec): string {
  const parts: string[] = [];
  for (const block of spec.blocks) {
    switch (block.kind) {
      case "heading":
        parts.push(
          block.level <= 2
            ? `${block.text}\n${(block.level === 1 ? "=" : "-").repeat(block.text.length)}`
            : `${"#".repeat(block.level)} ${block.text} ${"#".repeat(block.level)}`,
        );
        break;
      case "paragraph": {
        // Hard-wrapped at about 72 columns, as editors do.
        const words = block.text.split(" ");
        const lines: string[] = [];
        let line = "";
        for (const word of words) {
          if (line !== "" && line.length + word.length > 72) {
            lines.push(line);
            line = word;
          } else line = line === "" ? word : `${line} ${word}`;
        }
        lines.push(line);
        parts.push(lines.join("\n"));
        break;
      }
      case "list":
        parts.push(block.items.map((item, i) => `${block.ordered ? `${i + 1})` : "*"} ${item}`).join("\n"));
        break;
      case "table":
        parts.push(
          block.rows
            .map((row, r) => {
              const line = row.map((c) => c.replace(/\|/g, "\\|")).join(" | ");
              return r === 0 ? `${line}\n${row.map(() => ":--").join(" | ")}` : line;
            })
            .join("\n"),
        );
        break;
      case "rtl":
        parts.push(block.heading === undefined ? block.text : `${"#".repeat(block.heading)} ${block.text}`);
        break;
      case "equation":
      case "textbox":
        throw new Error(`${block.kind} is a DOCX-only block`);
    }
  }
  return `${parts.join("\n\n")}\n`;
}
