/**
 * HTML to the document model through htmlparser2 (HTML5 tokenizer, the full named-entity table of
 * `entities`, implied end tags) feeding a small state machine, no DOM (docs/decisions.md, CP6):
 * headings, paragraphs, nested lists, tables, images, preformatted text. Used for HTML input and
 * HTML mail bodies.
 */
import { decodeHTML } from "entities";
import { Parser } from "htmlparser2";
import { type Block, type ListItem, normalizeInline, type PictureBlock } from "../document-model.js";

/** HTML character references (all 2,231 named ones, numeric, legacy forms without `;`) decoded. */
export function decodeEntities(text: string): string {
  return decodeHTML(text);
}

/** Elements whose content is never document text (the title is read from its own element). */
const RAW = new Set(["script", "style", "template", "noscript", "svg", "math", "title", "textarea"]);

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

  let rawDepth = 0;
  let titleText: string | null = null;
  const onText = (value: string) => {
    if (rawDepth > 0) {
      if (titleText !== null && rawDepth === 1) titleText += value;
      return;
    }
    append(value);
  };
  const onOpen = (name: string, attrs: Record<string, string>) => {
    if (rawDepth > 0 || RAW.has(name)) {
      if (RAW.has(name)) {
        if (rawDepth === 0 && name === "title" && title === null) titleText = "";
        rawDepth++;
      }
      return;
    }
    if (name === "meta") {
      const key = attrs.name ?? attrs.property;
      if (key !== undefined && attrs.content !== undefined) meta[key.toLowerCase()] = attrs.content;
      return;
    }
    handle({ kind: "open", name, attrs });
  };
  const onClose = (name: string) => {
    if (rawDepth > 0) {
      if (RAW.has(name)) {
        rawDepth--;
        if (rawDepth === 0 && titleText !== null) {
          title = normalizeInline(titleText);
          titleText = null;
        }
      }
      return;
    }
    handle({ kind: "close", name, attrs: {} });
  };
  function handle(token: { kind: "open" | "close"; name: string; attrs: Record<string, string> }): void {
    const { name } = token;
    if (token.kind === "open") {
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
      return;
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
  const parser = new Parser(
    { onopentag: onOpen, onclosetag: onClose, ontext: onText },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  flushItem();
  // Assigned inside the parser's callbacks, which the compiler's narrowing does not follow.
  const openList = rootList as ListState | null;
  if (openList !== null && openList.items.length > 0) {
    blocks.push({ type: "list", ordered: openList.ordered, items: openList.items });
  }
  flushText();
  return { blocks, title, meta };
}
