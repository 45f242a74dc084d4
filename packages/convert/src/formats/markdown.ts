/**
 * Markdown to the document model through markdown-it (CommonMark with GFM tables and
 * strikethrough; docs/decisions.md, CP9); also reads vision-model answers. The token stream is
 * walked once: headings, paragraphs, nested lists, tables, code (fenced and indented), block
 * quotes (their content), HTML blocks (through the HTML reader) and a YAML front matter's title.
 */
import MarkdownIt from "markdown-it";
import type Token from "markdown-it/lib/token.mjs";
import { type Block, type ListItem, normalizeInline } from "../document-model.js";
import { htmlToBlocks } from "./html.js";

/** Raw HTML is recognised (then read by the HTML reader); bare URLs and typography are left as written. */
const parser = new MarkdownIt("default", { html: true, linkify: false, typographer: false });
// A link's target stays as written (percent-encoding and punycode are a browser's business, and
// cost a URL parse per link); markdown-it still refuses `javascript:` and the like.
parser.normalizeLink = (url: string) => url;

/** An inline run: its plain words, its Markdown, and whether that Markdown carries formatting. */
interface Inline {
  text: string;
  markdown: string;
  formatted: boolean;
}

/**
 * Text re-escaped for the Markdown field, so the field parses back to the same words: markup
 * characters, and `_` only where it could open or close emphasis (not inside `snake_case`).
 */
const MARKUP_CHARACTER = /[\\`*[\]_|]/;

function escapeText(text: string, inTable: boolean): string {
  if (!MARKUP_CHARACTER.test(text)) return text;
  const escaped = text
    .replace(/[\\`*[\]]/g, "\\$&")
    .replace(/(^|[^\p{L}\p{N}])_|_(?=[^\p{L}\p{N}]|$)/gu, (match) => match.replace("_", "\\_"));
  return inTable ? escaped.replace(/\|/g, "\\|") : escaped;
}

/** `` ` `` runs inside a code span need a longer fence and, at its edges, a space. */
function codeSpan(content: string, markup: string): string {
  const padded = content.startsWith("`") || content.endsWith("`") ? ` ${content} ` : content;
  return `${markup}${padded}${markup}`;
}

function linkTarget(token: Token): string {
  const href = token.attrGet("href") ?? "";
  const title = token.attrGet("title");
  const target = /[\s()<>]/.test(href) ? `<${href}>` : href;
  return title === null ? target : `${target} "${title.replace(/"/g, '\\"')}"`;
}

/** Tokens whose Markdown differs from their words (inline HTML too: `<br>` is read apart). */
const FORMATTING = new Set(["code_inline", "strong_open", "em_open", "s_open", "link_open", "html_inline"]);

/** Whitespace other than single inner spaces: only then is the run normalised (most runs need not be). */
const IRREGULAR_SPACE = /[^\S ]| {2}|^ | $/;

function tidy(text: string): string {
  return IRREGULAR_SPACE.test(text) ? normalizeInline(text) : text;
}

/** A paragraph that is one image (and blanks) is a picture block. */
function onlyImage(children: Token[] | null): Token | undefined {
  let image: Token | undefined;
  for (const token of children ?? []) {
    if (token.type === "image" && image === undefined) image = token;
    else if (!(token.type === "text" && token.content.trim() === "") && token.type !== "softbreak")
      return undefined;
  }
  return image;
}

const LINE_BREAK_TAG = /^<br\s*\/?>$/i;

/**
 * Plain words (images give their alt text, inline HTML tags are dropped, `<br>` is a space) and
 * the Markdown of the formatting the plain words lose: bold, italic, strikethrough, links, code.
 */
function inlineOf(children: Token[] | null, inTable = false): Inline {
  if (!(children ?? []).some((token) => FORMATTING.has(token.type))) {
    // Most runs are plain words: their Markdown is only needed when something is formatted.
    let text = "";
    for (const token of children ?? [])
      text += token.type === "softbreak" || token.type === "hardbreak" ? " " : token.content;
    const plain = tidy(text);
    return { text: plain, markdown: escapeText(plain, inTable), formatted: false };
  }
  let text = "";
  let markdown = "";
  let formatted = false;
  let autolink = false;
  const links: Token[] = [];
  for (const token of children ?? []) {
    switch (token.type) {
      case "text":
        text += token.content;
        markdown += autolink ? token.content : escapeText(token.content, inTable);
        break;
      case "code_inline":
        text += token.content;
        markdown += codeSpan(token.content, token.markup);
        formatted = true;
        break;
      case "softbreak":
      case "hardbreak":
        text += " ";
        markdown += " ";
        break;
      case "strong_open":
      case "strong_close":
      case "em_open":
      case "em_close":
      case "s_open":
      case "s_close":
        markdown += token.markup;
        formatted = true;
        break;
      case "link_open":
        autolink = token.markup === "autolink";
        markdown += autolink ? "<" : "[";
        links.push(token);
        formatted = true;
        break;
      case "link_close":
        {
          const opener = links.pop();
          markdown += autolink ? ">" : `](${opener === undefined ? "" : linkTarget(opener)})`;
          autolink = false;
        }
        break;
      case "image":
        // Pictures are exported by the picture blocks' own rules: inline, an image is its alt text.
        text += token.content;
        markdown += escapeText(token.content, inTable);
        break;
      case "html_inline":
        if (LINE_BREAK_TAG.test(token.content)) {
          text += " ";
          markdown += " ";
        } else {
          markdown += token.content;
          formatted = true;
        }
        break;
      default:
        text += token.content;
        markdown += escapeText(token.content, inTable);
    }
  }
  return { text: tidy(text), markdown: tidy(markdown), formatted };
}

/** `text` always; `markdown` only when the source was formatted. */
function fields(run: Inline): { text: string; markdown?: string } {
  return run.formatted ? { text: run.text, markdown: run.markdown } : { text: run.text };
}

const TASK_MARKER = /^\[[ xX]\]\s+/;

/** A task list's `[ ]` / `[x]` is the item's state, not its words. */
function withoutTaskMarker(run: Inline): Inline {
  if (!TASK_MARKER.test(run.text)) return run;
  return {
    ...run,
    text: run.text.replace(TASK_MARKER, ""),
    markdown: run.markdown.replace(/^\\?\[[ xX]\\?\]\s+/, ""),
  };
}

/** A YAML front matter is metadata: its `title:` is the document's title, the rest is skipped. */
function frontMatter(source: string): { body: string; title: string | null } {
  if (!source.startsWith("---\n")) return { body: source, title: null };
  const end = source.indexOf("\n---\n", 3);
  const close = end >= 0 ? end : source.endsWith("\n---") ? source.length - 4 : -1;
  if (close < 0) return { body: source, title: null };
  let title: string | null = null;
  for (const line of source.slice(4, close).split("\n")) {
    const m = /^title:\s*["']?(.*?)["']?\s*$/.exec(line);
    if (m?.[1] !== undefined) title = m[1];
  }
  // Blank lines keep the body's line numbers; they are not content.
  const skipped = source.slice(0, close + 4).replace(/[^\n]/g, "");
  return { body: skipped + source.slice(close + 4), title };
}

/** One list item being read: its text grows with each paragraph it holds. */
interface ItemFrame {
  item: ListItem | null;
  run: Inline | null;
  depth: number;
}

export function markdownToBlocks(source: string): { blocks: Block[]; title: string | null } {
  const { body, title: metaTitle } = frontMatter(source.replace(/\r\n?/g, "\n"));
  const tokens = parser.parse(body, {});
  const blocks: Block[] = [];
  let title = metaTitle;
  // The list block being filled (all nesting levels of one top-level list), its nesting depth and items.
  let list: { ordered: boolean; items: ListItem[] } | null = null;
  let depth = -1;
  const frames: ItemFrame[] = [];
  let table: { rows: string[][]; markdownRows: string[][]; formatted: boolean } | null = null;

  /** A block inside a list item (a fence, a table) ends the list block there; the list goes on after it. */
  const emit = (block: Block) => {
    if (list !== null && list.items.length > 0) {
      blocks.push({ type: "list", ordered: list.ordered, items: list.items });
      list = { ordered: list.ordered, items: [] };
    }
    blocks.push(block);
  };

  const addToItem = (frame: ItemFrame, run: Inline) => {
    if (list === null) return;
    if (frame.run === null || frame.item === null) {
      frame.run = withoutTaskMarker(run);
      frame.item = { ...fields(frame.run), depth: frame.depth };
      list.items.push(frame.item);
      return;
    }
    const joined = {
      text: `${frame.run.text} ${run.text}`.trim(),
      markdown: `${frame.run.markdown} ${run.markdown}`.trim(),
      formatted: frame.run.formatted || run.formatted,
    };
    frame.run = joined;
    const next = { ...fields(joined), depth: frame.depth };
    list.items[list.items.indexOf(frame.item)] = next;
    frame.item = next;
  };

  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as Token;
    switch (token.type) {
      case "bullet_list_open":
      case "ordered_list_open":
        if (depth < 0) list = { ordered: token.type === "ordered_list_open", items: [] };
        depth++;
        break;
      case "bullet_list_close":
      case "ordered_list_close":
        depth--;
        if (depth < 0 && list !== null) {
          if (list.items.length > 0) blocks.push({ type: "list", ordered: list.ordered, items: list.items });
          list = null;
        }
        break;
      case "list_item_open":
        frames.push({ item: null, run: null, depth });
        break;
      case "list_item_close":
        frames.pop();
        break;
      case "heading_open": {
        const run = inlineOf((tokens[i + 1] as Token).children);
        i += 2;
        const frame = frames[frames.length - 1];
        if (frame !== undefined) {
          addToItem(frame, run);
          break;
        }
        const level = Number(token.tag.slice(1));
        emit({ type: "heading", level, ...fields(run) });
        if (title === null && level === 1) title = run.text;
        break;
      }
      case "paragraph_open": {
        const inlineToken = tokens[i + 1] as Token;
        i += 2;
        const frame = frames[frames.length - 1];
        const image = frame === undefined ? onlyImage(inlineToken.children) : undefined;
        if (image !== undefined) {
          blocks.push({ type: "picture", ...(image.content ? { alt: image.content } : {}) });
          break;
        }
        const run = inlineOf(inlineToken.children);
        if (frame !== undefined) addToItem(frame, run);
        else if (run.text !== "") blocks.push({ type: "paragraph", ...fields(run) });
        break;
      }
      case "fence": {
        const language = /^[\w+-]+/.exec(token.info.trim())?.[0];
        emit({ type: "code", text: token.content.replace(/\n$/, ""), ...(language ? { language } : {}) });
        break;
      }
      case "code_block":
        emit({ type: "code", text: token.content.replace(/\n$/, "") });
        break;
      case "html_block":
        for (const block of htmlToBlocks(token.content).blocks) emit(block);
        break;
      case "table_open":
        table = { rows: [], markdownRows: [], formatted: false };
        break;
      case "tr_open":
        table?.rows.push([]);
        table?.markdownRows.push([]);
        break;
      case "inline":
        // Only table cells reach here: headings and paragraphs consume their inline token.
        if (table !== null) {
          const run = inlineOf(token.children, true);
          table.rows[table.rows.length - 1]?.push(run.text);
          table.markdownRows[table.markdownRows.length - 1]?.push(run.markdown);
          table.formatted ||= run.formatted;
        }
        break;
      case "table_close":
        if (table !== null)
          emit({
            type: "table",
            rows: table.rows,
            header: true,
            ...(table.formatted ? { markdownRows: table.markdownRows } : {}),
          });
        table = null;
        break;
    }
  }
  return { blocks, title };
}
