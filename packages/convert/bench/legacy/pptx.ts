/** The reader as it was before issue #23 (hand tokenizer / regular expressions / mammoth): the benchmark baseline. */
/**
 * PPTX through jszip and the slide XML (DrawingML): slides in presentation order,
 * each headed by its title placeholder (the slide boundary's title), bullet paragraphs as lists, tables, pictures
 * with their descriptions, and speaker notes.
 */
import type JSZip from "jszip";
import { DocumentError } from "../../src/document-error.js";
import { type Block, type ListItem, normalizeInline } from "../../src/document-model.js";
import { documentOf, type ParsedDocument, type ParseOptions } from "../../src/formats/parse-context.js";
import { decodeEntities } from "./html.js";
import { readCoreProperties } from "./ooxml-core.js";

// PowerPoint writes a soft line break as `<a:br><a:rPr …/></a:br>`, not only `<a:br/>`; either
// must become a space or the words on both sides of it run together.
const RUN_TEXT =
  /<a:t(?:\s[^>]*)?>([\s\S]*?)<\/a:t>|<a:br\b[^>]*\/>|<a:br\b[^>]*>[\s\S]*?<\/a:br>|<a:tab\s*\/>/g;

function paragraphText(xml: string): string {
  let text = "";
  for (const m of xml.matchAll(RUN_TEXT)) {
    text += m[1] === undefined ? " " : decodeEntities(m[1]);
  }
  return normalizeInline(text);
}

function paragraphs(xml: string): Array<{ text: string; level: number; bullet: boolean }> {
  const out: Array<{ text: string; level: number; bullet: boolean }> = [];
  for (const m of xml.matchAll(/<a:p>([\s\S]*?)<\/a:p>|<a:p\s[^>]*>([\s\S]*?)<\/a:p>/g)) {
    const body = m[1] ?? m[2] ?? "";
    const text = paragraphText(body);
    if (text === "") continue;
    const pPr = /<a:pPr\b([^>]*)\/?>/.exec(body)?.[1] ?? "";
    const level = Number(/\blvl="(\d+)"/.exec(pPr)?.[1] ?? "0");
    const bullet = /<a:bu(Char|AutoNum)\b/.test(body) || level > 0;
    out.push({ text, level, bullet });
  }
  return out;
}

function relationships(xml: string | null): Map<string, string> {
  const map = new Map<string, string>();
  if (xml === null) return map;
  for (const m of xml.matchAll(/<Relationship\b([^>]*)\/?>/g)) {
    const attrs = m[1] ?? "";
    const id = /\bId="([^"]+)"/.exec(attrs)?.[1];
    const target = /\bTarget="([^"]+)"/.exec(attrs)?.[1];
    if (id !== undefined && target !== undefined) map.set(id, target);
  }
  return map;
}

function resolvePath(base: string, target: string): string {
  if (target.startsWith("/")) return target.slice(1);
  const parts = base.split("/").slice(0, -1);
  for (const part of target.split("/")) {
    if (part === "..") parts.pop();
    else if (part !== ".") parts.push(part);
  }
  return parts.join("/");
}

async function readText(zip: JSZip, path: string): Promise<string | null> {
  const file = zip.file(path);
  return file === null ? null : file.async("string");
}

async function slideBlocks(zip: JSZip, path: string, index: number, embedImages: boolean): Promise<Block[]> {
  const xml = (await readText(zip, path)) ?? "";
  const rels = relationships(await readText(zip, resolvePath(path, `_rels/${path.split("/").pop()}.rels`)));
  const blocks: Block[] = [];
  let title: string | null = null;
  // Shapes, tables and pictures in document order.
  const shape =
    /<p:sp>([\s\S]*?)<\/p:sp>|<p:sp\s[^>]*>([\s\S]*?)<\/p:sp>|<p:graphicFrame\b[^>]*>([\s\S]*?)<\/p:graphicFrame>|<p:pic>([\s\S]*?)<\/p:pic>|<p:pic\s[^>]*>([\s\S]*?)<\/p:pic>/g;
  for (const m of xml.matchAll(shape)) {
    const sp = m[1] ?? m[2];
    const frame = m[3];
    const pic = m[4] ?? m[5];
    if (sp !== undefined) {
      const placeholder = /<p:ph\b([^>]*)\/?>/.exec(sp)?.[1];
      const phType = placeholder === undefined ? null : (/\btype="(\w+)"/.exec(placeholder)?.[1] ?? "body");
      const found = paragraphs(sp);
      if (found.length === 0) continue;
      if ((phType === "title" || phType === "ctrTitle") && title === null) {
        // The slide's boundary carries its title and renders as its heading (docs/decisions.md, C5).
        title = found.map((p) => p.text).join(" ");
        continue;
      }
      if (phType === "title" || phType === "ctrTitle") {
        blocks.push({ type: "heading", level: 2, text: found.map((p) => p.text).join(" ") });
        continue;
      }
      if (phType === "subTitle") {
        blocks.push({ type: "heading", level: 3, text: found.map((p) => p.text).join(" ") });
        continue;
      }
      // Body placeholders are bulleted by the layout even without explicit bullets.
      const bulleted = phType === "body" || phType === "obj" || found.some((p) => p.bullet);
      if (bulleted && found.length > 1) {
        const items: ListItem[] = found.map((p) => ({ text: p.text, depth: Math.min(p.level, 8) }));
        blocks.push({ type: "list", ordered: /<a:buAutoNum\b/.test(sp), items });
      } else {
        for (const p of found) blocks.push({ type: "paragraph", text: p.text });
      }
    } else if (frame?.includes("<a:tbl>")) {
      const rows: string[][] = [];
      for (const row of frame.matchAll(/<a:tr\b[^>]*>([\s\S]*?)<\/a:tr>/g)) {
        const cells = [...(row[1] ?? "").matchAll(/<a:tc\b[^>]*>([\s\S]*?)<\/a:tc>|<a:tc\b[^>]*\/>/g)].map(
          (cell) =>
            paragraphs(cell[1] ?? "")
              .map((p) => p.text)
              .join(" "),
        );
        rows.push(cells);
      }
      if (rows.length > 0) blocks.push({ type: "table", rows, header: true });
    } else if (pic !== undefined) {
      const alt =
        /<p:cNvPr\b[^>]*\bdescr="([^"]*)"/.exec(pic)?.[1] ?? /<p:cNvPr\b[^>]*\bname="([^"]*)"/.exec(pic)?.[1];
      const embed = /<a:blip\b[^>]*r:embed="([^"]+)"/.exec(pic)?.[1];
      const target = embed === undefined ? undefined : rels.get(embed);
      const picture: Block = { type: "picture", ...(alt ? { alt: decodeEntities(alt) } : {}) };
      if (target !== undefined) {
        const mediaPath = resolvePath(path, target);
        const ext = mediaPath.split(".").pop()?.toLowerCase() ?? "";
        const mime =
          ext === "png"
            ? "image/png"
            : ext === "jpg" || ext === "jpeg"
              ? "image/jpeg"
              : ext === "gif"
                ? "image/gif"
                : undefined;
        if (mime !== undefined) {
          picture.mimeType = mime;
          if (embedImages) {
            const media = zip.file(mediaPath);
            if (media !== null) picture.dataUrl = `data:${mime};base64,${await media.async("base64")}`;
          }
        }
      }
      blocks.push(picture);
    }
  }
  // Speaker notes.
  for (const [, target] of rels) {
    if (!/notesSlide/.test(target)) continue;
    const notesXml = await readText(zip, resolvePath(path, target));
    if (notesXml === null) continue;
    const notes = [...notesXml.matchAll(/<p:sp>([\s\S]*?)<\/p:sp>/g)]
      .filter((m) => /<p:ph\b[^>]*type="body"/.test(m[1] ?? ""))
      .flatMap((m) => paragraphs(m[1] ?? "").map((p) => p.text));
    if (notes.length > 0) blocks.push({ type: "paragraph", text: `Notes: ${notes.join(" ")}` });
  }
  return [{ type: "section", kind: "slide", index, title: title ?? `Slide ${index}` }, ...blocks];
}

export async function parsePptx(bytes: Uint8Array, options: ParseOptions): Promise<ParsedDocument> {
  const { default: JSZip } = await import("jszip");
  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(bytes);
  } catch (error) {
    throw new DocumentError(
      "corrupt_document",
      `The PPTX could not be read: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const presentation = await readText(zip, "ppt/presentation.xml");
  if (presentation === null)
    throw new DocumentError("corrupt_document", "The PPTX has no ppt/presentation.xml");
  const rels = relationships(await readText(zip, "ppt/_rels/presentation.xml.rels"));
  const slidePaths: string[] = [];
  for (const m of presentation.matchAll(/<p:sldId\b[^>]*r:id="([^"]+)"/g)) {
    const target = rels.get(m[1] ?? "");
    if (target !== undefined) slidePaths.push(resolvePath("ppt/presentation.xml", target));
  }
  const limit =
    options.maxPages === undefined ? slidePaths.length : Math.min(options.maxPages, slidePaths.length);
  const blocks: Block[] = [];
  for (let i = 0; i < limit; i++)
    blocks.push(...(await slideBlocks(zip, slidePaths[i] as string, i + 1, options.embedImages)));
  const metadata = await readCoreProperties(zip);
  metadata.slides = slidePaths.length;
  return documentOf("pptx", blocks, metadata, { pageCount: slidePaths.length });
}
