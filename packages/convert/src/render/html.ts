import type { Block, DocumentModel, ListBlock, TableBlock } from "../document-model.js";

export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

function htmlList(list: ListBlock): string {
  const tag = list.ordered ? "ol" : "ul";
  let out = "";
  let depth = -1;
  for (const item of list.items) {
    if (item.depth > depth) {
      for (let d = depth; d < item.depth; d++) out += `<${tag}>`;
    } else {
      out += "</li>";
      for (let d = depth; d > item.depth; d--) out += `</${tag}></li>`;
    }
    depth = item.depth;
    out += `<li>${escapeHtml(item.text)}`;
  }
  for (let d = depth; d >= 0; d--) out += d === 0 ? `</li></${tag}>` : `</li></${tag}>`;
  return out;
}

function htmlTable(table: TableBlock): string {
  const rows = table.rows.map((row, index) => {
    const cell = table.header && index === 0 ? "th" : "td";
    return `<tr>${row.map((text) => `<${cell}>${escapeHtml(text)}</${cell}>`).join("")}</tr>`;
  });
  const caption = table.caption === undefined ? "" : `<caption>${escapeHtml(table.caption)}</caption>`;
  return `<table>${caption}${rows.join("")}</table>`;
}

function renderBlock(block: Block): string {
  switch (block.type) {
    case "heading": {
      const level = Math.min(6, Math.max(1, block.level));
      return `<h${level}>${escapeHtml(block.text)}</h${level}>`;
    }
    case "paragraph":
      return `<p>${escapeHtml(block.text).replace(/\n/g, "<br>")}</p>`;
    case "list":
      return htmlList(block);
    case "table":
      return htmlTable(block);
    case "code":
      return `<pre><code>${escapeHtml(block.text)}</code></pre>`;
    case "picture": {
      const image =
        block.dataUrl === undefined
          ? `<!-- image -->`
          : `<img src="${escapeHtml(block.dataUrl)}" alt="${escapeHtml(block.alt ?? "")}">`;
      const text =
        block.text === undefined || block.text === ""
          ? ""
          : `<figcaption>${escapeHtml(block.text)}</figcaption>`;
      return `<figure>${image}${text}</figure>`;
    }
    case "page":
      return `<div class="page" data-page="${block.number}"></div>`;
    case "section":
      return `<h2 class="${block.kind}" data-index="${block.index}">${escapeHtml(block.title)}</h2>`;
  }
}

export function renderHtml(document: DocumentModel): string {
  const title = typeof document.metadata.title === "string" ? document.metadata.title : document.filename;
  const body = document.blocks.map(renderBlock).join("\n");
  return `<!DOCTYPE html>\n<html>\n<head>\n<meta charset="utf-8">\n<title>${escapeHtml(title)}</title>\n</head>\n<body>\n${body}\n</body>\n</html>\n`;
}
