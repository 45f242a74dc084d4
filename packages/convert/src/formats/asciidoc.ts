/** AsciiDoc to the document model: titles, sections, lists, tables, listing blocks, attributes. */
import { type Block, type ListItem, normalizeInline } from "../document-model.js";

function inline(text: string): string {
  return normalizeInline(
    text
      .replace(/\b(?:https?:\/\/\S+?)\[([^\]]*)\]/g, "$1")
      .replace(/\b(?:link|xref|image):[^\s[]*\[([^\]]*)\]/g, "$1")
      .replace(/<<[^,>]+,([^>]+)>>/g, "$1")
      .replace(/([*_`#])\1?(.+?)\1\1?/g, "$2"),
  );
}

const LIST = /^(\*{1,5}|\.{1,5}|-)\s+(.*)$/;

export function asciidocToBlocks(source: string): {
  blocks: Block[];
  title: string | null;
  attributes: Record<string, string>;
} {
  const lines = source.replace(/\r\n?/g, "\n").split("\n");
  const blocks: Block[] = [];
  const attributes: Record<string, string> = {};
  let title: string | null = null;
  let paragraph: string[] = [];
  let caption: string | null = null;
  const flush = () => {
    if (paragraph.length > 0) {
      const text = inline(paragraph.join(" "));
      if (text !== "") blocks.push({ type: "paragraph", text });
    }
    paragraph = [];
  };
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] as string;
    if (line.startsWith("////")) {
      i++;
      while (i < lines.length && !(lines[i] as string).startsWith("////")) i++;
      i++;
      continue;
    }
    if (/^\/\//.test(line)) {
      i++;
      continue;
    }
    const attribute = /^:([\w-]+):\s*(.*)$/.exec(line);
    if (attribute !== null && paragraph.length === 0) {
      attributes[attribute[1] as string] = attribute[2] ?? "";
      i++;
      continue;
    }
    const heading = /^(={1,6})\s+(.*)$/.exec(line);
    if (heading !== null) {
      flush();
      const level = (heading[1] as string).length;
      const text = inline(heading[2] ?? "");
      blocks.push({ type: "heading", level, text });
      if (level === 1 && title === null) title = text;
      i++;
      continue;
    }
    if (/^\.[^\s.]/.test(line)) {
      flush();
      caption = inline(line.slice(1));
      i++;
      continue;
    }
    if (/^\[.*\]$/.test(line.trim())) {
      i++;
      continue;
    }
    if (/^(----|\.\.\.\.|````)\s*$/.test(line)) {
      flush();
      const marker = line.trim();
      const body: string[] = [];
      i++;
      while (i < lines.length && (lines[i] as string).trim() !== marker) body.push(lines[i++] as string);
      i++;
      blocks.push({ type: "code", text: body.join("\n") });
      continue;
    }
    if (/^\|===\s*$/.test(line)) {
      flush();
      const rows: string[][] = [];
      let header = false;
      let cols = 0;
      let pending: string[] = [];
      let sawBlank = false;
      let linesSeen = 0;
      i++;
      while (i < lines.length && !/^\|===\s*$/.test(lines[i] as string)) {
        const row = lines[i] as string;
        if (row.trim() === "") {
          // A first line of cells followed by a blank line is the header row.
          if (linesSeen === 1 && !sawBlank && rows.length <= 1 && (rows.length === 1 || pending.length > 0)) {
            header = true;
            if (rows.length === 0) {
              cols = pending.length;
              rows.push(pending);
              pending = [];
            }
          }
          sawBlank = true;
          i++;
          continue;
        }
        linesSeen++;
        const cells = row
          .split("|")
          .slice(1)
          .map((cell) => inline(cell));
        pending.push(...cells);
        if (cols === 0 && !sawBlank && rows.length === 0 && cells.length > 1) cols = cells.length;
        if (cols > 0 && pending.length >= cols) {
          rows.push(pending.slice(0, cols));
          pending = pending.slice(cols);
        }
        i++;
      }
      if (pending.length > 0) rows.push(pending);
      i++;
      blocks.push({ type: "table", rows, header, ...(caption === null ? {} : { caption }) });
      caption = null;
      continue;
    }
    const item = LIST.exec(line);
    if (item !== null) {
      flush();
      const ordered = (item[1] as string).startsWith(".");
      const items: ListItem[] = [];
      while (i < lines.length) {
        const m = LIST.exec(lines[i] as string);
        if (m === null || (m[1] as string).startsWith(".") !== ordered) break;
        const marker = m[1] as string;
        items.push({ text: inline(m[2] ?? ""), depth: marker === "-" ? 0 : marker.length - 1 });
        i++;
      }
      blocks.push({ type: "list", ordered, items });
      continue;
    }
    const image = /^image::([^[]*)\[([^\]]*)\]/.exec(line);
    if (image !== null) {
      flush();
      const alt = (image[2] ?? "").split(",")[0] ?? "";
      blocks.push({ type: "picture", ...(alt === "" ? {} : { alt }) });
      i++;
      continue;
    }
    if (line.trim() === "") {
      flush();
      i++;
      continue;
    }
    paragraph.push(line.replace(/\s\+$/, ""));
    i++;
  }
  flush();
  return { blocks, title, attributes };
}
