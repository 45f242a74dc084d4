/**
 * DOCX read from its WordprocessingML parts with a real XML parser (docs/decisions.md, CP1):
 * headings (style name, style chain or outline level), lists (numbering definitions), tables with
 * merged cells repeated into every slot they cover, text boxes (DrawingML and VML) after the
 * paragraph that anchors them, charts as tables, pictures, OMML equations as LaTeX, footnotes
 * and endnotes at the end.
 */
import { DocumentError } from "../document-error.js";
import { type Block, type ListItem, normalizeInline, type PictureBlock } from "../document-model.js";
import { latexOf } from "./omml-latex.js";
import { chartTable } from "./ooxml-chart.js";
import { IMAGE_MIME_TYPES, readCoreProperties } from "./ooxml-core.js";
import { type OoxmlPackage, openOoxmlPackage } from "./ooxml-package.js";
import {
  child,
  childElements,
  childValue,
  descendant,
  descendants,
  parseXml,
  relationshipsOf,
  relsPathOf,
  resolvePartPath,
  type XmlElement,
} from "./ooxml-xml.js";
import { documentOf, type ParsedDocument, type ParseOptions } from "./parse-context.js";

interface Style {
  name: string;
  basedOn: string | undefined;
  outlineLevel: number | undefined;
  numId: string | undefined;
  ilvl: number | undefined;
}

interface Context {
  pkg: OoxmlPackage;
  part: string;
  rels: Map<string, { target: string; type: string; external: boolean }>;
  styles: Map<string, Style>;
  /** numId → level → ordered? */
  numbering: Map<string, Map<number, boolean>>;
  embedImages: boolean;
  /** Chart parts read ahead (async) and looked up while walking (sync). */
  charts: Map<string, XmlElement>;
  /** Media parts read ahead as base64 when pictures are embedded. */
  media: Map<string, string>;
}

function readStyles(xml: string | null): Map<string, Style> {
  const styles = new Map<string, Style>();
  if (xml === null) return styles;
  for (const style of childElements(parseXml(xml, "word/styles.xml"))) {
    if (style.name !== "w:style") continue;
    const id = style.attrs["w:styleId"];
    if (id === undefined) continue;
    const pPr = child(style, "w:pPr");
    const numPr = pPr === undefined ? undefined : child(pPr, "w:numPr");
    const outline = childValue(pPr, "w:outlineLvl");
    const ilvl = childValue(numPr, "w:ilvl");
    styles.set(id, {
      name: (childValue(style, "w:name") ?? id).toLowerCase(),
      basedOn: childValue(style, "w:basedOn"),
      outlineLevel: outline === undefined ? undefined : Number(outline),
      numId: childValue(numPr, "w:numId"),
      ilvl: ilvl === undefined ? undefined : Number(ilvl),
    });
  }
  return styles;
}

function readNumbering(xml: string | null): Map<string, Map<number, boolean>> {
  const out = new Map<string, Map<number, boolean>>();
  if (xml === null) return out;
  const root = parseXml(xml, "word/numbering.xml");
  const abstract = new Map<string, Map<number, boolean>>();
  for (const element of childElements(root)) {
    if (element.name !== "w:abstractNum") continue;
    const levels = new Map<number, boolean>();
    for (const lvl of childElements(element)) {
      if (lvl.name !== "w:lvl") continue;
      const format = childValue(lvl, "w:numFmt") ?? "decimal";
      levels.set(Number(lvl.attrs["w:ilvl"] ?? "0"), format !== "bullet" && format !== "none");
    }
    abstract.set(element.attrs["w:abstractNumId"] ?? "", levels);
  }
  for (const element of childElements(root)) {
    if (element.name !== "w:num") continue;
    const levels = abstract.get(childValue(element, "w:abstractNumId") ?? "");
    if (levels !== undefined) out.set(element.attrs["w:numId"] ?? "", levels);
  }
  return out;
}

/** Heading level of a style: its name (`heading 2`, `Title`) or outline level, up the `basedOn` chain. */
function styleHeading(context: Context, styleId: string | undefined): number | null {
  let id = styleId;
  for (let depth = 0; id !== undefined && depth < 10; depth++) {
    const style = context.styles.get(id);
    if (style === undefined) {
      const m = /^heading\s*([1-9])$/i.exec(id);
      return m === null ? null : Math.min(6, Number(m[1]));
    }
    const m = /^heading\s*([1-9])$/.exec(style.name);
    if (m !== null) return Math.min(6, Number(m[1]));
    if (style.name === "title") return 1;
    if (style.outlineLevel !== undefined && style.outlineLevel < 9)
      return Math.min(6, style.outlineLevel + 1);
    id = style.basedOn;
  }
  return null;
}

function styleNumbering(
  context: Context,
  styleId: string | undefined,
): { numId: string; ilvl: number } | null {
  let id = styleId;
  for (let depth = 0; id !== undefined && depth < 10; depth++) {
    const style = context.styles.get(id);
    if (style === undefined) return null;
    if (style.numId !== undefined) return { numId: style.numId, ilvl: style.ilvl ?? 0 };
    id = style.basedOn;
  }
  return null;
}

/** What one paragraph (or run container) yields: its text and the blocks anchored in it. */
interface Inline {
  text: string;
  /** Text boxes, pictures and charts, emitted after the paragraph's own text. */
  anchored: Block[];
  /** Display equations split the paragraph: text before, the equation, text after. */
  segments: Array<{ text: string } | { display: string }>;
}

function picture(context: Context, element: XmlElement, alt: string | undefined): PictureBlock {
  const block: PictureBlock = { type: "picture" };
  if (alt !== undefined && normalizeInline(alt) !== "") block.alt = normalizeInline(alt);
  const blip = descendant(element, "a:blip") ?? descendant(element, "v:imagedata");
  const id = blip?.attrs["r:embed"] ?? blip?.attrs["r:id"];
  const rel = id === undefined ? undefined : context.rels.get(id);
  if (rel !== undefined && !rel.external) {
    const path = resolvePartPath(context.part, rel.target);
    const mime = IMAGE_MIME_TYPES[path.split(".").pop()?.toLowerCase() ?? ""];
    if (mime !== undefined) {
      block.mimeType = mime;
      const data = context.media.get(path);
      if (data !== undefined) block.dataUrl = `data:${mime};base64,${data}`;
    }
  }
  return block;
}

/** A `w:drawing` or VML `w:pict`: text boxes' paragraphs, a chart's table, or a picture. */
function drawing(context: Context, element: XmlElement, out: Inline): void {
  const boxes = descendants(element, "w:txbxContent");
  if (boxes.length > 0) {
    for (const box of boxes) out.anchored.push(...bodyBlocks(context, box));
    return;
  }
  const chart = descendant(element, "c:chart");
  if (chart !== undefined) {
    const rel = context.rels.get(chart.attrs["r:id"] ?? "");
    const part =
      rel === undefined ? undefined : context.charts.get(resolvePartPath(context.part, rel.target));
    const table = part === undefined ? null : chartTable(part);
    if (table !== null) {
      out.anchored.push(table);
      return;
    }
  }
  if (descendant(element, "a:blip") !== undefined || descendant(element, "v:imagedata") !== undefined) {
    const docPr = descendant(element, "wp:docPr");
    const alt =
      docPr?.attrs.descr || docPr?.attrs.title || descendant(element, "v:imagedata")?.attrs["o:title"];
    out.anchored.push(picture(context, element, alt));
  }
}

function inline(context: Context, element: XmlElement, out: Inline): void {
  for (const node of element.children) {
    if (typeof node === "string") continue;
    switch (node.name) {
      case "w:t":
        for (const text of node.children) if (typeof text === "string") out.text += text;
        break;
      case "w:tab":
      case "w:ptab":
        out.text += " ";
        break;
      case "w:br":
      case "w:cr":
        out.text += "\n";
        break;
      case "w:noBreakHyphen":
        out.text += "-";
        break;
      case "w:drawing":
      case "w:pict":
        drawing(context, node, out);
        break;
      case "mc:AlternateContent": {
        // The first choice Word understood; the fallback (usually VML) repeats it.
        const choice = child(node, "mc:Choice") ?? child(node, "mc:Fallback");
        if (choice !== undefined) inline(context, choice, out);
        break;
      }
      case "m:oMath": {
        const latex = latexOf(node);
        if (latex !== "") out.text += ` ${latex} `;
        break;
      }
      case "m:oMathPara": {
        const latex = latexOf(node);
        if (latex === "") break;
        out.segments.push({ text: out.text }, { display: latex });
        out.text = "";
        break;
      }
      // Deleted text, field instructions, properties and references carry no visible words.
      case "w:del":
      case "w:moveFrom":
      case "w:delText":
      case "w:instrText":
      case "w:rPr":
      case "w:pPr":
      case "w:commentReference":
      case "w:footnoteReference":
      case "w:endnoteReference":
      case "w:object":
        break;
      default:
        // Runs, hyperlinks, insertions, fields, smart tags, content controls.
        inline(context, node, out);
    }
  }
}

function paragraphInline(context: Context, p: XmlElement): Inline {
  const out: Inline = { text: "", anchored: [], segments: [] };
  inline(context, p, out);
  out.segments.push({ text: out.text });
  return out;
}

interface PendingList {
  numId: string;
  ordered: boolean;
  items: ListItem[];
}

/** Paragraphs, lists and tables of a body, a table cell, a text box or a note. */
function bodyBlocks(context: Context, container: XmlElement): Block[] {
  const blocks: Block[] = [];
  let list: PendingList | null = null;
  const flushList = () => {
    if (list !== null && list.items.length > 0)
      blocks.push({ type: "list", ordered: list.ordered, items: list.items });
    list = null;
  };
  const walk = (element: XmlElement) => {
    for (const node of childElements(element)) {
      if (node.name === "w:p") {
        const pPr = child(node, "w:pPr");
        const styleId = childValue(pPr, "w:pStyle");
        const content = paragraphInline(context, node);
        const heading = (() => {
          const outline = childValue(pPr, "w:outlineLvl");
          // A direct outline level wins over the style's; level 9 is Word's "Body Text".
          if (outline !== undefined && Number.isInteger(Number(outline)))
            return Number(outline) < 9 ? Math.min(6, Number(outline) + 1) : null;
          return styleHeading(context, styleId);
        })();
        const numPr = pPr === undefined ? undefined : child(pPr, "w:numPr");
        const numbering =
          numPr === undefined
            ? styleNumbering(context, styleId)
            : {
                numId: childValue(numPr, "w:numId") ?? styleNumbering(context, styleId)?.numId ?? "0",
                ilvl: Number(childValue(numPr, "w:ilvl") ?? "0"),
              };
        for (const segment of content.segments) {
          if ("display" in segment) {
            flushList();
            blocks.push({ type: "paragraph", text: segment.display });
            continue;
          }
          const text = normalizeInline(segment.text);
          if (text === "") continue;
          if (heading !== null) {
            flushList();
            blocks.push({ type: "heading", level: heading, text });
          } else if (
            numbering !== null &&
            numbering.numId !== "0" &&
            context.numbering.has(numbering.numId)
          ) {
            const ilvl = Number.isFinite(numbering.ilvl) ? Math.max(0, Math.min(8, numbering.ilvl)) : 0;
            const ordered = context.numbering.get(numbering.numId)?.get(ilvl) ?? false;
            const current = list as PendingList | null;
            if (
              current === null ||
              (ilvl === 0 && (current.numId !== numbering.numId || current.ordered !== ordered))
            ) {
              flushList();
              list = { numId: numbering.numId, ordered, items: [] };
            }
            (list as PendingList | null)?.items.push({ text, depth: ilvl });
          } else {
            flushList();
            blocks.push({ type: "paragraph", text });
          }
        }
        if (content.anchored.length > 0) {
          flushList();
          blocks.push(...content.anchored);
        }
      } else if (node.name === "w:tbl") {
        flushList();
        const table = tableBlock(context, node);
        if (table !== null) blocks.push(table);
      } else if (node.name === "w:sdt") {
        const sdtContent = child(node, "w:sdtContent");
        if (sdtContent !== undefined) walk(sdtContent);
      } else if (node.name === "w:customXml" || node.name === "w:ins" || node.name === "w:moveTo") {
        walk(node);
      } else if (node.name === "mc:AlternateContent") {
        const choice = child(node, "mc:Choice") ?? child(node, "mc:Fallback");
        if (choice !== undefined) walk(choice);
      } else if (node.name === "m:oMathPara") {
        const latex = latexOf(node);
        if (latex !== "") blocks.push({ type: "paragraph", text: latex });
      }
    }
  };
  walk(container);
  flushList();
  return blocks;
}

/** A cell's blocks as one line of text (nested tables and lists flatten into it). */
function cellText(blocks: Block[]): string {
  const parts: string[] = [];
  for (const block of blocks) {
    if (block.type === "heading" || block.type === "paragraph" || block.type === "code")
      parts.push(block.text);
    else if (block.type === "list") parts.push(...block.items.map((item) => item.text));
    else if (block.type === "table") parts.push(...block.rows.flat().filter((cell) => cell !== ""));
    else if (block.type === "picture" && block.alt !== undefined) parts.push(block.alt);
  }
  return normalizeInline(parts.join(" "));
}

function rowsOf(table: XmlElement): XmlElement[] {
  const rows: XmlElement[] = [];
  for (const node of childElements(table)) {
    if (node.name === "w:tr") rows.push(node);
    else if (node.name === "w:sdt" || node.name === "w:customXml" || node.name === "w:ins") {
      const inner = child(node, "w:sdtContent") ?? node;
      rows.push(...childElements(inner).filter((row) => row.name === "w:tr"));
    }
  }
  return rows;
}

function cellsOf(row: XmlElement): XmlElement[] {
  const cells: XmlElement[] = [];
  for (const node of childElements(row)) {
    if (node.name === "w:tc") cells.push(node);
    else if (node.name === "w:sdt" || node.name === "w:customXml") {
      const inner = child(node, "w:sdtContent") ?? node;
      cells.push(...childElements(inner).filter((cell) => cell.name === "w:tc"));
    }
  }
  return cells;
}

const MAX_SPAN = 64;

/**
 * The table on its grid: a cell spanning columns (`w:gridSpan`) or continuing a vertical merge
 * (`w:vMerge` without `restart`) repeats the merged cell's text in every slot it covers, so each
 * Markdown row reads whole and no column shifts (docs/decisions.md, CP2).
 */
function tableBlock(context: Context, table: XmlElement): Block | null {
  const rows: string[][] = [];
  let header = false;
  for (const [rowIndex, row] of rowsOf(table).entries()) {
    const trPr = child(row, "w:trPr");
    if (rowIndex === 0 && trPr !== undefined && child(trPr, "w:tblHeader") !== undefined) header = true;
    const cells: string[] = [];
    const before = Number(childValue(trPr, "w:gridBefore") ?? "0");
    for (let i = 0; i < Math.min(MAX_SPAN, Number.isFinite(before) ? before : 0); i++) cells.push("");
    for (const cell of cellsOf(row)) {
      const tcPr = child(cell, "w:tcPr");
      const spanValue = Number(childValue(tcPr, "w:gridSpan") ?? "1");
      const span = Number.isFinite(spanValue) ? Math.max(1, Math.min(MAX_SPAN, Math.floor(spanValue))) : 1;
      const vMerge = tcPr === undefined ? undefined : child(tcPr, "w:vMerge");
      const continues = vMerge !== undefined && vMerge.attrs["w:val"] !== "restart";
      const column = cells.length;
      const text = continues ? (rows[rows.length - 1]?.[column] ?? "") : cellText(bodyBlocks(context, cell));
      for (let i = 0; i < span; i++) cells.push(text);
    }
    rows.push(cells);
  }
  if (rows.length === 0 || rows.every((row) => row.length === 0)) return null;
  const width = Math.max(...rows.map((row) => row.length));
  for (const row of rows) while (row.length < width) row.push("");
  return { type: "table", rows, header };
}

function notes(context: Context, xml: string | null, part: string, noteName: string): string[] {
  if (xml === null) return [];
  const out: string[] = [];
  for (const note of childElements(parseXml(xml, part))) {
    if (note.name !== noteName) continue;
    const type = note.attrs["w:type"];
    if (type !== undefined && type !== "normal") continue; // separators
    const text = cellText(bodyBlocks(context, note));
    if (text !== "") out.push(text);
  }
  return out;
}

/** The parts a walk needs synchronously: charts always, media when pictures are embedded. */
async function readAhead(
  pkg: OoxmlPackage,
  part: string,
  rels: Context["rels"],
  embedImages: boolean,
): Promise<{ charts: Map<string, XmlElement>; media: Map<string, string> }> {
  const charts = new Map<string, XmlElement>();
  const media = new Map<string, string>();
  for (const rel of rels.values()) {
    if (rel.external) continue;
    const path = resolvePartPath(part, rel.target);
    if (rel.type.endsWith("/chart")) {
      const xml = await pkg.text(path);
      if (xml !== null) charts.set(path, parseXml(xml, path));
    } else if (embedImages && rel.type.endsWith("/image")) {
      const data = await pkg.base64(path);
      if (data !== null) media.set(path, data);
    }
  }
  return { charts, media };
}

export async function parseDocx(bytes: Uint8Array, options: ParseOptions): Promise<ParsedDocument> {
  const pkg = await openOoxmlPackage(bytes, "DOCX", options.limits.maxEntryBytes);
  const packageRels = relationshipsOf(await pkg.text("_rels/.rels"), "_rels/.rels");
  const main = [...packageRels.values()].find((rel) => rel.type.endsWith("/officeDocument"));
  const part = main === undefined ? "word/document.xml" : resolvePartPath("", main.target);
  const documentXml = await pkg.text(part);
  if (documentXml === null) throw new DocumentError("corrupt_document", `The DOCX has no ${part}`);
  const rels = relationshipsOf(await pkg.text(relsPathOf(part)), relsPathOf(part));
  const partOf = (suffix: string) => {
    const rel = [...rels.values()].find((r) => r.type.endsWith(suffix) && !r.external);
    return rel === undefined ? null : pkg.text(resolvePartPath(part, rel.target));
  };
  const [stylesXml, numberingXml, footnotesXml, endnotesXml] = await Promise.all([
    partOf("/styles"),
    partOf("/numbering"),
    partOf("/footnotes"),
    partOf("/endnotes"),
  ]);
  const document = parseXml(documentXml, part);
  const context: Context = {
    pkg,
    part,
    rels,
    styles: readStyles(stylesXml),
    numbering: readNumbering(numberingXml),
    embedImages: options.embedImages,
    ...(await readAhead(pkg, part, rels, options.embedImages)),
  };
  const body = child(document, "w:body");
  if (body === undefined) throw new DocumentError("corrupt_document", `The DOCX's ${part} has no body`);
  const blocks = bodyBlocks(context, body);
  // Notes live in parts of their own, whose pictures are not read ahead: their text is what counts.
  const noteContext = {
    ...context,
    part: "word/footnotes.xml",
    rels: new Map(),
    charts: new Map(),
    media: new Map(),
  };
  const noteTexts = [
    ...notes(noteContext, footnotesXml, "word/footnotes.xml", "w:footnote"),
    ...notes(noteContext, endnotesXml, "word/endnotes.xml", "w:endnote"),
  ];
  if (noteTexts.length > 0)
    blocks.push({ type: "list", ordered: true, items: noteTexts.map((text) => ({ text, depth: 0 })) });
  const metadata = await readCoreProperties(pkg);
  return documentOf("docx", blocks, metadata);
}
