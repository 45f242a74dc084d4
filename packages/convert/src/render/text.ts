import type { Block, DocumentModel } from "../document-model.js";

function renderBlock(block: Block): string | null {
  switch (block.type) {
    case "heading":
    case "paragraph":
    case "code":
      return block.text;
    case "list":
      return block.items.map((item) => `${"  ".repeat(item.depth)}${item.text}`).join("\n");
    case "table":
      return [
        ...(block.caption === undefined ? [] : [block.caption]),
        ...block.rows.map((row) => row.join("\t")),
      ].join("\n");
    case "picture":
      return block.text === undefined || block.text === "" ? null : block.text;
    case "page":
      // Form feed between pages, the plain-text convention (pdftotext does the same).
      return block.number === 1 ? null : "\f";
    case "section":
      return block.title;
  }
}

export function renderText(document: DocumentModel): string {
  const parts: string[] = [];
  for (const block of document.blocks) {
    const text = renderBlock(block);
    if (text !== null && text !== "") parts.push(text);
  }
  return parts.length === 0 ? "" : `${parts.join("\n\n").replace(/\n\n\f\n\n/g, "\n\f\n")}\n`;
}
