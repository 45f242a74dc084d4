/** Markdown (CommonMark/GFM subset) to the document model; also reads vision-model answers. */
import { type Block, type ListItem, normalizeInline } from "../document-model.js";

function inline(text: string): string {
  return normalizeInline(
    text
      .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
      .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
      .replace(/(\*\*|__)(.+?)\1/g, "$2")
      .replace(/(^|[^*\w])[*_]([^*_]+)[*_](?=[^*\w]|$)/g, "$1$2")
      .replace(/`([^`]+)`/g, "$1")
      .replace(/\\([\\`*_{}[\]()#+\-.!|>=])/g, "$1"),
  );
}

function splitRow(line: string): string[] {
  let body = line.trim();
  if (body.startsWith("|")) body = body.slice(1);
  if (body.endsWith("|") && !body.endsWith("\\|")) body = body.slice(0, -1);
  return body.split(/(?<!\\)\|/).map((cell) => inline(cell.replace(/\\\|/g, "|")));
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
      const text = inline(paragraph.join(" "));
      if (text !== "") blocks.push({ type: "paragraph", text });
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
      const text = inline(heading[2] ?? "");
      blocks.push({ type: "heading", level: (heading[1] as string).length, text });
      if (title === null && heading[1] === "#") title = text;
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
      blocks.push({ type: "heading", level: next.trim().startsWith("=") ? 1 : 2, text: inline(line) });
      i += 2;
      continue;
    }
    if (line.includes("|") && next !== undefined && TABLE_RULE.test(next)) {
      flush();
      const rows = [splitRow(line)];
      i += 2;
      while (i < lines.length && (lines[i] as string).includes("|") && (lines[i] as string).trim() !== "") {
        rows.push(splitRow(lines[i] as string));
        i++;
      }
      blocks.push({ type: "table", rows, header: true });
      continue;
    }
    const item = LIST_ITEM.exec(line);
    if (item !== null) {
      flush();
      const ordered = /\d/.test(item[2] as string);
      const items: ListItem[] = [];
      const indents: number[] = [];
      while (i < lines.length) {
        const m = LIST_ITEM.exec(lines[i] as string);
        if (m === null) {
          const cont = lines[i] as string;
          if (cont.trim() !== "" && /^\s+/.test(cont) && items.length > 0) {
            const lastItem = items[items.length - 1] as ListItem;
            lastItem.text = inline(`${lastItem.text} ${cont}`);
            i++;
            continue;
          }
          break;
        }
        const indent = (m[1] as string).length;
        while (indents.length > 0 && indent < (indents[indents.length - 1] as number)) indents.pop();
        if (indents.length === 0 || indent > (indents[indents.length - 1] as number)) indents.push(indent);
        items.push({
          text: inline((m[3] as string).replace(/^\[[ xX]\]\s+/, "")),
          depth: indents.length - 1,
        });
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
