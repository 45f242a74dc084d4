/** Frozen copy of the hand Markdown reader replaced in CP9, kept as the readers benchmark baseline. */
import { type Block, type ListItem, normalizeInline } from "../../src/document-model.js";

/** Inline images become their alt text: pictures are exported by the picture blocks' own rules. */
function withoutImages(text: string): string {
  return text.replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1");
}

/** Removes bold, italic, link, image and code-span markup, keeping their text. */
function stripFormatting(text: string): string {
  return withoutImages(text)
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/(\*\*|__)(.+?)\1/g, "$2")
    .replace(/(^|[^*\w])[*_]([^*_]+)[*_](?=[^*\w]|$)/g, "$1$2")
    .replace(/`([^`]+)`/g, "$1");
}

function inline(text: string): string {
  return normalizeInline(stripFormatting(text).replace(/\\([\\`*_{}[\]()#+\-.!|>=])/g, "$1"));
}

/**
 * The source's inline Markdown (whitespace normalised) when it has bold, italic, links or
 * code spans, so a Markdown rendering can give them back; `text` keeps the plain words.
 */
function markdownOf(source: string): string | undefined {
  const kept = withoutImages(source);
  return stripFormatting(kept) === kept ? undefined : normalizeInline(kept);
}

/** Inline text of a block: its plain words, plus its Markdown when it is formatted. */
function textOf(source: string): { text: string; markdown?: string } {
  const markdown = markdownOf(source);
  return markdown === undefined ? { text: inline(source) } : { text: inline(source), markdown };
}

function splitCells(line: string): string[] {
  let body = line.trim();
  if (body.startsWith("|")) body = body.slice(1);
  if (body.endsWith("|") && !body.endsWith("\\|")) body = body.slice(0, -1);
  return body.split(/(?<!\\)\|/);
}

function splitRow(line: string): string[] {
  return splitCells(line).map((cell) => inline(cell.replace(/\\\|/g, "|")));
}

/** The table's cells as Markdown (escaped pipes kept) when any cell is formatted. */
function markdownRowsOf(lines: string[]): { markdownRows?: string[][] } {
  const rows = lines.map((line) => splitCells(line));
  if (!rows.some((row) => row.some((cell) => markdownOf(cell) !== undefined))) return {};
  return { markdownRows: rows.map((row) => row.map((cell) => normalizeInline(withoutImages(cell)))) };
}

const LIST_ITEM = /^(\s*)([-*+]|\d{1,9}[.)])\s+(.*)$/;
const TABLE_RULE = /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/;

export function markdownToBlocks(source: string): { blocks: Block[]; title: string | null } {
  const lines = source.replace(/\r\n?/g, "\n").split("\n");
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  let title: string | null = null;
  const flush = () => {
    if (paragraph.length > 0) {
      const inlineText = textOf(paragraph.join(" "));
      if (inlineText.text !== "") blocks.push({ type: "paragraph", ...inlineText });
    }
    paragraph = [];
  };
  let i = 0;
  // YAML front matter: title only.
  if (lines[0] === "---") {
    const end = lines.indexOf("---", 1);
    if (end > 0) {
      for (const line of lines.slice(1, end)) {
        const m = /^title:\s*["']?(.*?)["']?\s*$/.exec(line);
        if (m?.[1] !== undefined) title = m[1];
      }
      i = end + 1;
    }
  }
  while (i < lines.length) {
    const line = lines[i] as string;
    const fence = /^\s*(```+|~~~+)\s*([\w+-]*)/.exec(line);
    if (fence !== null) {
      flush();
      const marker = fence[1] as string;
      const body: string[] = [];
      i++;
      while (i < lines.length && !(lines[i] as string).trim().startsWith(marker))
        body.push(lines[i++] as string);
      i++;
      blocks.push({ type: "code", text: body.join("\n"), ...(fence[2] ? { language: fence[2] } : {}) });
      continue;
    }
    const heading = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading !== null) {
      flush();
      const inlineText = textOf(heading[2] ?? "");
      blocks.push({ type: "heading", level: (heading[1] as string).length, ...inlineText });
      if (title === null && heading[1] === "#") title = inlineText.text;
      i++;
      continue;
    }
    const next = lines[i + 1];
    if (
      line.trim() !== "" &&
      next !== undefined &&
      /^\s{0,3}(=+|-+)\s*$/.test(next) &&
      paragraph.length === 0 &&
      !LIST_ITEM.test(line)
    ) {
      blocks.push({ type: "heading", level: next.trim().startsWith("=") ? 1 : 2, ...textOf(line) });
      i += 2;
      continue;
    }
    if (line.includes("|") && next !== undefined && TABLE_RULE.test(next)) {
      flush();
      const rowLines = [line];
      i += 2;
      while (i < lines.length && (lines[i] as string).includes("|") && (lines[i] as string).trim() !== "") {
        rowLines.push(lines[i] as string);
        i++;
      }
      blocks.push({ type: "table", rows: rowLines.map(splitRow), header: true, ...markdownRowsOf(rowLines) });
      continue;
    }
    const item = LIST_ITEM.exec(line);
    if (item !== null) {
      flush();
      const ordered = /\d/.test(item[2] as string);
      const items: ListItem[] = [];
      // Each item's source text, so continuation lines keep their formatting too.
      const sources: string[] = [];
      const indents: number[] = [];
      while (i < lines.length) {
        const m = LIST_ITEM.exec(lines[i] as string);
        if (m === null) {
          const cont = lines[i] as string;
          if (cont.trim() !== "" && /^\s+/.test(cont) && items.length > 0) {
            const last = items.length - 1;
            sources[last] = `${sources[last]} ${cont}`;
            items[last] = { ...textOf(sources[last] as string), depth: (items[last] as ListItem).depth };
            i++;
            continue;
          }
          break;
        }
        const indent = (m[1] as string).length;
        while (indents.length > 0 && indent < (indents[indents.length - 1] as number)) indents.pop();
        if (indents.length === 0 || indent > (indents[indents.length - 1] as number)) indents.push(indent);
        const itemSource = (m[3] as string).replace(/^\[[ xX]\]\s+/, "");
        sources.push(itemSource);
        items.push({ ...textOf(itemSource), depth: indents.length - 1 });
        i++;
      }
      blocks.push({ type: "list", ordered, items });
      continue;
    }
    const image = /^\s*!\[([^\]]*)\]\(([^)\s]*)[^)]*\)\s*$/.exec(line);
    if (image !== null) {
      flush();
      blocks.push({ type: "picture", ...(image[1] ? { alt: image[1] } : {}) });
      i++;
      continue;
    }
    if (line.trim() === "" || /^\s{0,3}([-*_])(\s*\1){2,}\s*$/.test(line)) {
      flush();
      i++;
      continue;
    }
    paragraph.push(line.replace(/^\s{0,3}>\s?/, ""));
    i++;
  }
  flush();
  return { blocks, title };
}
