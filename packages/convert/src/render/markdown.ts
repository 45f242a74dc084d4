import type { Block, BoundingBox, DocumentModel, ListBlock, TableBlock } from "../document-model.js";

const IMAGE_PLACEHOLDER = "<!-- image -->";

function escapeCell(text: string): string {
  return text.replace(/\\/g, "\\\\").replace(/\|/g, "\\|").replace(/\r?\n/g, "<br>");
}

/**
 * GitHub table. GFM requires a header row, so the first row takes that place even when the
 * source did not mark it as a header (Word tables rarely do); the JSON model keeps `header`.
 */
export function markdownTable(table: TableBlock): string {
  const width = Math.max(1, ...table.rows.map((row) => row.length));
  // Markdown cells come from a Markdown table: their pipes are escaped already, their backslashes are markup.
  const cell = table.markdownRows === undefined ? escapeCell : (text: string) => text;
  const pad = (row: string[]) => Array.from({ length: width }, (_, i) => cell(row[i] ?? ""));
  const rows = (table.markdownRows ?? table.rows).map(pad);
  const header = rows.length > 0 ? (rows.shift() as string[]) : pad([]);
  const lines = [
    `| ${header.join(" | ")} |`,
    `|${Array.from({ length: width }, () => " --- ").join("|")}|`,
    ...rows.map((row) => `| ${row.join(" | ")} |`),
  ];
  return table.caption === undefined ? lines.join("\n") : `${lines.join("\n")}\n\n*${table.caption}*`;
}

function markdownList(list: ListBlock): string {
  const counters: number[] = [];
  return list.items
    .map((item) => {
      counters.length = item.depth + 1;
      counters[item.depth] = (counters[item.depth] ?? 0) + 1;
      const marker = list.ordered ? `${counters[item.depth]}.` : "-";
      return `${"  ".repeat(item.depth)}${marker} ${item.markdown ?? item.text}`;
    })
    .join("\n");
}

/** Keeps paragraph lines from reading as headings, lists, quotes or tables when parsed back. */
function escapeLineStarts(text: string): string {
  return text
    .split("\n")
    .map((line) =>
      line.replace(/^(\s*)(\d{1,9})([.)])(\s|$)/, "$1$2\\$3$4").replace(/^(\s*)([#>+\-*|=])/, "$1\\$2"),
    )
    .join("\n");
}

/**
 * The same for formatted text, where a leading `*` or `_` may open emphasis: it is escaped
 * only where it would start a list item or a rule.
 */
function escapeMarkdownLineStarts(text: string): string {
  return text
    .split("\n")
    .map((line) =>
      line
        .replace(/^(\s*)(\d{1,9})([.)])(\s|$)/, "$1$2\\$3$4")
        .replace(/^(\s*)([#>+\-|=]|[*_](?=\s|[*_\s]*$)|```|~~~)/, "$1\\$2"),
    )
    .join("\n");
}

function renderBlock(block: Block): string | null {
  switch (block.type) {
    case "heading":
      return `${"#".repeat(Math.min(6, Math.max(1, block.level)))} ${block.markdown ?? block.text}`;
    case "paragraph":
      return block.markdown === undefined
        ? escapeLineStarts(block.text)
        : escapeMarkdownLineStarts(block.markdown);
    case "list":
      return markdownList(block);
    case "table":
      return markdownTable(block);
    case "code": {
      const fence = block.text.includes("```") ? "~~~" : "```";
      return `${fence}${block.language ?? ""}\n${block.text}\n${fence}`;
    }
    case "picture": {
      const image =
        block.dataUrl === undefined ? IMAGE_PLACEHOLDER : `![${block.alt ?? "image"}](${block.dataUrl})`;
      return block.text === undefined || block.text === "" ? image : `${image}\n\n${block.text}`;
    }
    case "page":
      return block.number === 1 ? null : `<!-- page ${block.number} -->`;
    case "section":
      // A sheet's name and a slide's title are their headings; numbering them again only adds
      // words that are not in the document (docs/decisions.md, C5).
      if (block.kind === "sheet" || block.kind === "slide") return `## ${block.title}`;
      return `## ${block.kind === "layer" ? "Layer" : "Attachment"} ${block.index}: ${block.title}`;
  }
}

export function renderMarkdown(document: DocumentModel): string {
  return renderPlacedMarkdown(document).markdown;
}

/**
 * Where a block's text lies in the Markdown output: code-point offsets (end exclusive), the page and,
 * for PDF, the box. A list has one entry per item (its line), other blocks one each; only blocks that
 * know their page are listed.
 */
export interface BlockPlacement {
  start: number;
  end: number;
  page: number;
  bbox?: BoundingBox;
}

/** The Markdown output and, beside it, where each paged block's text lies in it (decision PV12). */
export function renderPlacedMarkdown(document: DocumentModel): {
  markdown: string;
  placements: BlockPlacement[];
} {
  const parts: string[] = [];
  const placements: BlockPlacement[] = [];
  let offset = 0;
  for (const block of document.blocks) {
    const text = renderBlock(block);
    if (text === null || text === "") continue;
    if (parts.length > 0) offset += 2; // the "\n\n" between blocks
    const length = codePointCount(text);
    if (block.type !== "page" && block.type !== "section" && block.page !== undefined) {
      const lines = text.split("\n");
      if (block.type === "list" && lines.length === block.items.length) {
        let start = offset;
        block.items.forEach((item, index) => {
          const end = start + codePointCount(lines[index]!);
          placements.push(placement(start, end, block.page!, item.bbox ?? block.bbox));
          start = end + 1;
        });
      } else
        placements.push(
          placement(offset, offset + length, block.page, "bbox" in block ? block.bbox : undefined),
        );
    }
    parts.push(text);
    offset += length;
  }
  return { markdown: parts.length === 0 ? "" : `${parts.join("\n\n")}\n`, placements };
}

function placement(start: number, end: number, page: number, bbox: BoundingBox | undefined): BlockPlacement {
  return bbox === undefined ? { start, end, page } : { start, end, page, bbox };
}

function codePointCount(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // A low surrogate after a high one is the second half of one code point.
    if (code >= 0xdc00 && code <= 0xdfff && i > 0) {
      const previous = text.charCodeAt(i - 1);
      if (previous >= 0xd800 && previous <= 0xdbff) continue;
    }
    count++;
  }
  return count;
}
