/**
 * PPTX through its package parts (ooxml-package.ts) and the slide XML (DrawingML) read by a real XML parser (docs/decisions.md,
 * CP3): slides in presentation order, each headed by its title placeholder (the slide boundary's
 * title), bullet paragraphs as lists, tables, charts as tables (CP5), pictures with their
 * descriptions, and speaker notes.
 */
import { DocumentError } from "../document-error.js";
import { type Block, type ListItem, normalizeInline, type PictureBlock } from "../document-model.js";
import { chartTable } from "./ooxml-chart.js";
import { IMAGE_MIME_TYPES, readCoreProperties } from "./ooxml-core.js";
import { type OoxmlPackage, openOoxmlPackage } from "./ooxml-package.js";
import {
  child,
  childElements,
  childrenNamed,
  descendant,
  descendants,
  parseXml,
  relationshipsOf,
  relsPathOf,
  resolvePartPath,
  type XmlElement,
} from "./ooxml-xml.js";
import { documentOf, type ParsedDocument, type ParseOptions } from "./parse-context.js";

type Relationships = ReturnType<typeof relationshipsOf>;

/** Runs, fields, soft line breaks and tabs of one `a:p`; a break or tab is a space so words never run together. */
function paragraphText(p: XmlElement): string {
  let text = "";
  const walk = (element: XmlElement) => {
    for (const node of element.children) {
      if (typeof node === "string") continue;
      if (node.name === "a:t") {
        for (const t of node.children) if (typeof t === "string") text += t;
      } else if (node.name === "a:br" || node.name === "a:tab") text += " ";
      else if (node.name === "a:r" || node.name === "a:fld") walk(node);
    }
  };
  walk(p);
  return normalizeInline(text);
}

interface Paragraph {
  text: string;
  level: number;
  bullet: boolean;
  numbered: boolean;
}

function paragraphs(container: XmlElement | undefined): Paragraph[] {
  if (container === undefined) return [];
  const out: Paragraph[] = [];
  for (const p of descendants(container, "a:p")) {
    const text = paragraphText(p);
    if (text === "") continue;
    const pPr = child(p, "a:pPr");
    const level = Number(pPr?.attrs.lvl ?? "0");
    const numbered = pPr !== undefined && child(pPr, "a:buAutoNum") !== undefined;
    const bullet = numbered || (pPr !== undefined && child(pPr, "a:buChar") !== undefined) || level > 0;
    out.push({ text, level: Number.isFinite(level) ? level : 0, bullet, numbered });
  }
  return out;
}

/**
 * A table's cells on its grid: a cell continuing a merge (`hMerge`, `vMerge`) repeats the merged
 * cell's text, as DOCX tables do (CP2).
 */
function tableRows(tbl: XmlElement): string[][] {
  const rows: string[][] = [];
  for (const tr of childrenNamed(tbl, "a:tr")) {
    const cells: string[] = [];
    for (const tc of childrenNamed(tr, "a:tc")) {
      const column = cells.length;
      if (tc.attrs.hMerge === "1" || tc.attrs.hMerge === "true") cells.push(cells[column - 1] ?? "");
      else if (tc.attrs.vMerge === "1" || tc.attrs.vMerge === "true")
        cells.push(rows[rows.length - 1]?.[column] ?? "");
      else
        cells.push(
          paragraphs(child(tc, "a:txBody"))
            .map((p) => p.text)
            .join(" "),
        );
    }
    rows.push(cells);
  }
  return rows;
}

interface Slide {
  pkg: OoxmlPackage;
  path: string;
  rels: Relationships;
  charts: Map<string, XmlElement>;
  embedImages: boolean;
  blocks: Block[];
  title: string | null;
}

async function picture(slide: Slide, pic: XmlElement): Promise<PictureBlock> {
  const cNvPr = descendant(pic, "p:cNvPr");
  const alt = cNvPr?.attrs.descr || cNvPr?.attrs.name;
  const block: PictureBlock = { type: "picture", ...(alt ? { alt } : {}) };
  const embed = descendant(pic, "a:blip")?.attrs["r:embed"];
  const rel = embed === undefined ? undefined : slide.rels.get(embed);
  if (rel !== undefined && !rel.external) {
    const mediaPath = resolvePartPath(slide.path, rel.target);
    const mime = IMAGE_MIME_TYPES[mediaPath.split(".").pop()?.toLowerCase() ?? ""];
    if (mime !== undefined) {
      block.mimeType = mime;
      if (slide.embedImages) {
        const media = await slide.pkg.base64(mediaPath);
        if (media !== null) block.dataUrl = `data:${mime};base64,${media}`;
      }
    }
  }
  return block;
}

function shape(slide: Slide, sp: XmlElement): void {
  const ph = descendant(child(sp, "p:nvSpPr") ?? sp, "p:ph");
  const phType = ph === undefined ? null : (ph.attrs.type ?? "body");
  const found = paragraphs(child(sp, "p:txBody"));
  if (found.length === 0) return;
  const joined = found.map((p) => p.text).join(" ");
  if (phType === "title" || phType === "ctrTitle") {
    // The slide's boundary carries its first title and renders as its heading (docs/decisions.md, C5).
    if (slide.title === null) slide.title = joined;
    else slide.blocks.push({ type: "heading", level: 2, text: joined });
    return;
  }
  if (phType === "subTitle") {
    slide.blocks.push({ type: "heading", level: 3, text: joined });
    return;
  }
  // Body placeholders are bulleted by the layout even without explicit bullets.
  const bulleted = phType === "body" || phType === "obj" || found.some((p) => p.bullet);
  if (bulleted && found.length > 1) {
    const items: ListItem[] = found.map((p) => ({ text: p.text, depth: Math.max(0, Math.min(p.level, 8)) }));
    slide.blocks.push({ type: "list", ordered: found.some((p) => p.numbered), items });
  } else {
    for (const p of found) slide.blocks.push({ type: "paragraph", text: p.text });
  }
}

function graphicFrame(slide: Slide, frame: XmlElement): void {
  const tbl = descendant(frame, "a:tbl");
  if (tbl !== undefined) {
    const rows = tableRows(tbl);
    if (rows.length > 0) slide.blocks.push({ type: "table", rows, header: true });
    return;
  }
  const chart = descendant(frame, "c:chart");
  const rel = chart === undefined ? undefined : slide.rels.get(chart.attrs["r:id"] ?? "");
  const part = rel === undefined ? undefined : slide.charts.get(resolvePartPath(slide.path, rel.target));
  const table = part === undefined ? null : chartTable(part);
  if (table !== null) slide.blocks.push(table);
}

/** Shapes, tables, charts and pictures in document (z-) order, groups included. */
async function shapeTree(slide: Slide, tree: XmlElement): Promise<void> {
  for (const node of childElements(tree)) {
    if (node.name === "p:sp") shape(slide, node);
    else if (node.name === "p:graphicFrame") graphicFrame(slide, node);
    else if (node.name === "p:pic") slide.blocks.push(await picture(slide, node));
    else if (node.name === "p:grpSp") await shapeTree(slide, node);
    else if (node.name === "mc:AlternateContent") {
      const choice = child(node, "mc:Choice") ?? child(node, "mc:Fallback");
      if (choice !== undefined) await shapeTree(slide, choice);
    }
  }
}

async function slideBlocks(
  pkg: OoxmlPackage,
  path: string,
  index: number,
  embedImages: boolean,
): Promise<Block[]> {
  const xml = (await pkg.text(path)) ?? "";
  const relsPath = relsPathOf(path);
  const rels = relationshipsOf(await pkg.text(relsPath), relsPath);
  const charts = new Map<string, XmlElement>();
  for (const rel of rels.values()) {
    if (rel.external || !rel.type.endsWith("/chart")) continue;
    const chartPath = resolvePartPath(path, rel.target);
    const chartXml = await pkg.text(chartPath);
    if (chartXml !== null) charts.set(chartPath, parseXml(chartXml, chartPath));
  }
  const slide: Slide = { pkg, path, rels, charts, embedImages, blocks: [], title: null };
  if (xml !== "") {
    const tree = descendant(parseXml(xml, path), "p:spTree");
    if (tree !== undefined) await shapeTree(slide, tree);
  }
  // Speaker notes.
  for (const rel of rels.values()) {
    if (rel.external || !/notesSlide$/.test(rel.type)) continue;
    const notesPath = resolvePartPath(path, rel.target);
    const notesXml = await pkg.text(notesPath);
    if (notesXml === null) continue;
    const notes = descendants(parseXml(notesXml, notesPath), "p:sp")
      .filter((sp) => descendant(child(sp, "p:nvSpPr") ?? sp, "p:ph")?.attrs.type === "body")
      .flatMap((sp) => paragraphs(child(sp, "p:txBody")).map((p) => p.text));
    if (notes.length > 0) slide.blocks.push({ type: "paragraph", text: `Notes: ${notes.join(" ")}` });
  }
  return [{ type: "section", kind: "slide", index, title: slide.title ?? `Slide ${index}` }, ...slide.blocks];
}

export async function parsePptx(bytes: Uint8Array, options: ParseOptions): Promise<ParsedDocument> {
  const pkg = await openOoxmlPackage(bytes, "PPTX", options.limits.maxEntryBytes);
  const presentation = await pkg.text("ppt/presentation.xml");
  if (presentation === null)
    throw new DocumentError("corrupt_document", "The PPTX has no ppt/presentation.xml");
  const rels = relationshipsOf(
    await pkg.text("ppt/_rels/presentation.xml.rels"),
    "ppt/_rels/presentation.xml.rels",
  );
  const slidePaths: string[] = [];
  for (const sldId of descendants(parseXml(presentation, "ppt/presentation.xml"), "p:sldId")) {
    const rel = rels.get(sldId.attrs["r:id"] ?? "");
    if (rel !== undefined) slidePaths.push(resolvePartPath("ppt/presentation.xml", rel.target));
  }
  const limit =
    options.maxPages === undefined ? slidePaths.length : Math.min(options.maxPages, slidePaths.length);
  const blocks: Block[] = [];
  for (let i = 0; i < limit; i++)
    blocks.push(...(await slideBlocks(pkg, slidePaths[i] as string, i + 1, options.embedImages)));
  const metadata = await readCoreProperties(pkg);
  metadata.slides = slidePaths.length;
  return documentOf("pptx", blocks, metadata, { pageCount: slidePaths.length });
}
