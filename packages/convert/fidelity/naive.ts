/**
 * The naive baseline of issue #23: what a converter gets by concatenating what the format's usual
 * library gives, with no structure recovered. Groundwork must never read fewer words than this.
 * - PDF: pdfjs text items, page by page, in content-stream order (a line break at each `hasEOL`);
 * - DOCX: mammoth's raw text; XLSX: each sheet's rows as CSV lines (SheetJS dense mode, real cells only);
 * - PPTX: every `<a:t>` run of each slide, in slide order, separated by spaces;
 * - HTML: the text content (tags dropped, script/style skipped, common entities decoded);
 * - Markdown: as is.
 */
import JSZip from "jszip";

export type CorpusFormat = "pdf" | "docx" | "pptx" | "xlsx" | "html" | "md";

async function naivePdf(bytes: Uint8Array): Promise<string> {
  const pdfjs = await import("pdfjs-dist/legacy/build/pdf.mjs");
  const doc = await pdfjs.getDocument({ data: bytes.slice(), isEvalSupported: false, verbosity: 0 }).promise;
  const pages: string[] = [];
  try {
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      let text = "";
      for (const item of content.items) {
        if (!("str" in item)) continue;
        text += item.str;
        text += item.hasEOL ? "\n" : " ";
      }
      pages.push(text);
      page.cleanup();
    }
  } finally {
    await doc.destroy();
  }
  return pages.join("\n\n");
}

async function naiveDocx(bytes: Uint8Array): Promise<string> {
  const mammoth = (await import("mammoth")).default;
  return (await mammoth.extractRawText({ buffer: Buffer.from(bytes) })).value;
}

async function naiveXlsx(bytes: Uint8Array): Promise<string> {
  const XLSX = await import("xlsx");
  const book = XLSX.read(bytes, { type: "array", dense: true });
  // sheet_to_csv over the real cells: walking the declared range of a sparse sheet would take minutes.
  return book.SheetNames.map((name) => {
    // A dense sheet is an array of rows holding only the real cells.
    const rows = book.Sheets[name] as unknown as Array<
      Array<{ w?: string; v?: unknown } | undefined> | undefined
    >;
    const lines: string[] = [];
    for (const row of Array.isArray(rows) ? rows : []) {
      if (row === undefined) continue;
      lines.push(
        Array.from(row, (cell) => (cell === undefined ? "" : (cell.w ?? String(cell.v ?? "")))).join(","),
      );
    }
    return lines.join("\n");
  }).join("\n\n");
}

async function naivePptx(bytes: Uint8Array): Promise<string> {
  const zip = await JSZip.loadAsync(bytes);
  const slides = Object.keys(zip.files)
    .filter((name) => /^ppt\/slides\/slide\d+\.xml$/.test(name))
    .sort((a, b) => Number(/\d+/.exec(a)?.[0]) - Number(/\d+/.exec(b)?.[0]));
  const out: string[] = [];
  for (const name of slides) {
    const xml = (await zip.file(name)?.async("string")) ?? "";
    const runs = [...xml.matchAll(/<a:t>([^<]*)<\/a:t>/g)].map((m) => decodeXml(m[1] ?? ""));
    out.push(runs.join(" "));
  }
  return out.join("\n\n");
}

function decodeXml(text: string): string {
  return text
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&amp;/g, "&");
}

function naiveHtml(html: string): string {
  return decodeXml(
    html
      .replace(/<(script|style|title)\b[\s\S]*?<\/\1>/gi, " ")
      .replace(/<[^>]*>/g, " ")
      .replace(/&nbsp;/g, " "),
  );
}

export async function naiveConvert(format: CorpusFormat, bytes: Uint8Array): Promise<string> {
  switch (format) {
    case "pdf":
      return naivePdf(bytes);
    case "docx":
      return naiveDocx(bytes);
    case "xlsx":
      return naiveXlsx(bytes);
    case "pptx":
      return naivePptx(bytes);
    case "html":
      return naiveHtml(new TextDecoder().decode(bytes));
    case "md":
      return new TextDecoder().decode(bytes);
  }
}
