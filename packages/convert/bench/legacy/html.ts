/** The reader as it was before issue #23 (hand tokenizer / regular expressions / mammoth): the benchmark baseline. */
/**
 * HTML to the document model with a small tolerant tokenizer (no DOM): headings,
 * paragraphs, nested lists, tables, images, preformatted text. Used for HTML input,
 * DOCX (through mammoth's HTML) and HTML mail bodies.
 */
import { type Block, type ListItem, normalizeInline, type PictureBlock } from "../../src/document-model.js";

const NAMED: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: "\u00a0",
  copy: "©",
  reg: "®",
  euro: "€",
  ndash: "–",
  mdash: "—",
  hellip: "…",
  laquo: "«",
  raquo: "»",
  auml: "ä",
  ouml: "ö",
  uuml: "ü",
  Auml: "Ä",
  Ouml: "Ö",
  Uuml: "Ü",
  szlig: "ß",
  eacute: "é",
  egrave: "è",
  bull: "•",
  rsquo: "’",
  lsquo: "‘",
  rdquo: "”",
  ldquo: "“",
};

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+\d*);/gi, (match, entity: string) => {
    if (entity[0] === "#") {
      const code =
        entity[1] === "x" || entity[1] === "X"
          ? Number.parseInt(entity.slice(2), 16)
          : Number(entity.slice(1));
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : match;
    }
    return NAMED[entity] ?? match;
  });
}

interface Token {
  kind: "open" | "close" | "text";
  name: string;
  attrs: Record<string, string>;
  text: string;
  selfClosing: boolean;
}

const VOID = new Set(["br", "img", "hr", "meta", "link", "input", "col", "area", "base", "wbr", "source"]);
const RAW = new Set(["script", "style", "template", "noscript", "svg", "head"]);

function parseAttrs(source: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  for (const m of source.matchAll(/([^\s=/>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g)) {
    const name = (m[1] ?? "").toLowerCase();
    attrs[name] = decodeEntities(m[2] ?? m[3] ?? m[4] ?? "");
  }
  return attrs;
}

function* tokenize(html: string): Generator<Token> {
  const tag =
    /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<![^>]*>|<\?[^>]*>|<(\/?)([a-zA-Z][\w:-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/g;
  let last = 0;
  for (let m = tag.exec(html); m !== null; m = tag.exec(html)) {
    if (m.index > last)
      yield { kind: "text", name: "", attrs: {}, text: html.slice(last, m.index), selfClosing: false };
    last = tag.lastIndex;
    const name = m[2]?.toLowerCase();
    if (name === undefined) continue; // comment, doctype, processing instruction
    const closing = m[1] === "/";
    const rest = m[3] ?? "";
    if (!closing && RAW.has(name) && !rest.trimEnd().endsWith("/")) {
      // Skip the raw element's content wholesale: it is never document text.
      const end = html.toLowerCase().indexOf(`</${name}`, last);
      const close = end < 0 ? html.length : html.indexOf(">", end);
      yield {
        kind: "open",
        name,
        attrs: parseAttrs(rest),
        text: html.slice(last, end < 0 ? html.length : end),
        selfClosing: true,
      };
      last = close < 0 ? html.length : close + 1;
      tag.lastIndex = last;
      continue;
    }
    yield {
      kind: closing ? "close" : "open",
      name,
      attrs: closing ? {} : parseAttrs(rest),
      text: "",
      selfClosing: VOID.has(name) || rest.trimEnd().endsWith("/"),
    };
  }
  if (last < html.length)
    yield { kind: "text", name: "", attrs: {}, text: html.slice(last), selfClosing: false };
}

export interface HtmlConversion {
  blocks: Block[];
  title: string | null;
  meta: Record<string, string>;
}

export interface HtmlOptions {
  embedImages: boolean;
}

const BLOCK_TAGS = new Set([
  "p",
  "div",
  "section",
  "article",
  "header",
  "footer",
  "main",
  "nav",
  "aside",
  "blockquote",
  "figure",
  "figcaption",
  "address",
  "dd",
  "dt",
  "form",
  "fieldset",
  "body",
  "html",
  "center",
]);

interface ListState {
  ordered: boolean;
  items: ListItem[];
  depth: number;
}

interface TableState {
  rows: string[][];
  row: string[] | null;
  cell: string | null;
  header: boolean;
  caption: string | null;
  inCaption: boolean;
}

export function htmlToBlocks(html: string, options: HtmlOptions = { embedImages: false }): HtmlConversion {
  const blocks: Block[] = [];
  const meta: Record<string, string> = {};
  let title: string | null = null;
  let text = "";
  let heading: number | null = null;
  let pre: string | null = null;
  const lists: ListState[] = [];
  let rootList: ListState | null = null;
  let listItemText: string | null = null;
  const tables: TableState[] = [];

  const flushText = () => {
    const value = normalizeInline(text);
    text = "";
    if (value === "") return;
    if (heading !== null) blocks.push({ type: "heading", level: heading, text: value });
    else blocks.push({ type: "paragraph", text: value });
  };
  const flushItem = () => {
    if (listItemText === null || rootList === null) return;
    const value = normalizeInline(listItemText);
    if (value !== "") rootList.items.push({ text: value, depth: lists.length - 1 });
    listItemText = null;
  };
  const append = (value: string) => {
    const table = tables[tables.length - 1];
    if (table !== undefined) {
      if (table.inCaption) table.caption = (table.caption ?? "") + value;
      else if (table.cell !== null) table.cell += value;
      return;
    }
    if (pre !== null) pre += value;
    else if (listItemText !== null) listItemText += value;
    else text += value;
  };

  for (const token of tokenize(html)) {
    if (token.kind === "text") {
      append(decodeEntities(token.text));
      continue;
    }
    const { name } = token;
    if (token.kind === "open") {
      if (name === "head") {
        const found = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(token.text);
        if (found?.[1] !== undefined) title = normalizeInline(decodeEntities(found[1]));
        for (const m of token.text.matchAll(/<meta\s((?:[^>"']|"[^"]*"|'[^']*')*)>/gi)) {
          const attrs = parseAttrs(m[1] ?? "");
          const key = attrs.name ?? attrs.property;
          if (key !== undefined && attrs.content !== undefined) meta[key.toLowerCase()] = attrs.content;
        }
        continue;
      }
      if (RAW.has(name)) continue;
      if (/^h[1-6]$/.test(name) && tables.length === 0 && lists.length === 0) {
        flushText();
        heading = Number(name[1]);
      } else if (name === "br") {
        append("\n");
      } else if (name === "pre" && tables.length === 0 && lists.length === 0) {
        flushText();
        pre = "";
      } else if ((name === "ul" || name === "ol") && tables.length === 0) {
        if (lists.length === 0) {
          flushText();
          rootList = { ordered: name === "ol", items: [], depth: 0 };
        } else flushItem();
        lists.push({ ordered: name === "ol", items: [], depth: lists.length });
      } else if (name === "li" && lists.length > 0 && tables.length === 0) {
        flushItem();
        listItemText = "";
      } else if (name === "table") {
        if (tables.length === 0) flushText();
        tables.push({ rows: [], row: null, cell: null, header: false, caption: null, inCaption: false });
      } else if (name === "caption" && tables.length > 0) {
        const table = tables[tables.length - 1] as TableState;
        table.inCaption = true;
      } else if (name === "tr" && tables.length > 0) {
        const table = tables[tables.length - 1] as TableState;
        table.row = [];
      } else if ((name === "td" || name === "th") && tables.length > 0) {
        const table = tables[tables.length - 1] as TableState;
        if (table.row === null) table.row = [];
        if (name === "th" && table.rows.length === 0) table.header = true;
        table.cell = "";
        const span = Number(token.attrs.colspan ?? "1");
        if (span > 1 && span < 100) (table.row as string[] & { pendingSpan?: number }).pendingSpan = span - 1;
      } else if (name === "img") {
        const picture: PictureBlock = { type: "picture" };
        const alt = token.attrs.alt;
        if (alt !== undefined && alt !== "") picture.alt = alt;
        const src = token.attrs.src ?? "";
        const mime = /^data:([^;,]+)/.exec(src)?.[1];
        if (mime !== undefined) picture.mimeType = mime;
        if (options.embedImages && src.startsWith("data:")) picture.dataUrl = src;
        if (tables.length > 0 || lists.length > 0) append(alt === undefined ? "" : ` ${alt} `);
        else {
          flushText();
          blocks.push(picture);
        }
      } else if (BLOCK_TAGS.has(name) && tables.length === 0 && lists.length === 0) {
        flushText();
      } else if (name === "hr" && tables.length === 0) {
        flushText();
      }
      continue;
    }
    // closing tags
    if (/^h[1-6]$/.test(name) && heading !== null) {
      flushText();
      heading = null;
    } else if (name === "pre" && pre !== null) {
      const code = pre.replace(/^\n/, "").replace(/\s+$/, "");
      if (code !== "") blocks.push({ type: "code", text: code });
      pre = null;
    } else if ((name === "ul" || name === "ol") && lists.length > 0 && tables.length === 0) {
      flushItem();
      lists.pop();
      if (lists.length === 0 && rootList !== null) {
        if (rootList.items.length > 0)
          blocks.push({ type: "list", ordered: rootList.ordered, items: rootList.items });
        rootList = null;
      } else listItemText = null;
    } else if (name === "li" && lists.length > 0) {
      flushItem();
    } else if (name === "caption" && tables.length > 0) {
      (tables[tables.length - 1] as TableState).inCaption = false;
    } else if ((name === "td" || name === "th") && tables.length > 0) {
      const table = tables[tables.length - 1] as TableState;
      if (table.row !== null && table.cell !== null) {
        table.row.push(normalizeInline(table.cell));
        const pending = (table.row as string[] & { pendingSpan?: number }).pendingSpan ?? 0;
        for (let i = 0; i < pending; i++) table.row.push("");
        (table.row as string[] & { pendingSpan?: number }).pendingSpan = 0;
      }
      table.cell = null;
    } else if (name === "tr" && tables.length > 0) {
      const table = tables[tables.length - 1] as TableState;
      if (table.row !== null && table.row.length > 0) table.rows.push([...table.row]);
      table.row = null;
    } else if (name === "table" && tables.length > 0) {
      const table = tables.pop() as TableState;
      if (table.row !== null && table.row.length > 0) table.rows.push([...table.row]);
      const outer = tables[tables.length - 1];
      if (outer !== undefined) {
        // A nested table becomes text inside the outer cell.
        if (outer.cell !== null) outer.cell += ` ${table.rows.map((r) => r.join(" ")).join(" ")} `;
      } else if (table.rows.length > 0) {
        blocks.push({
          type: "table",
          rows: table.rows,
          header: table.header,
          ...(table.caption === null || normalizeInline(table.caption) === ""
            ? {}
            : { caption: normalizeInline(table.caption) }),
        });
      }
    } else if (BLOCK_TAGS.has(name) && tables.length === 0 && lists.length === 0) {
      flushText();
    }
  }
  flushItem();
  if (rootList !== null && rootList.items.length > 0) {
    blocks.push({ type: "list", ordered: rootList.ordered, items: rootList.items });
  }
  flushText();
  if (title === null) {
    const found = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html);
    if (found?.[1] !== undefined) title = normalizeInline(decodeEntities(found[1]));
  }
  return { blocks, title, meta };
}
