/**
 * Converted HTML is shown inside the console's own page, so it is parsed inert (DOMParser runs
 * no scripts and loads nothing) and copied through an allowlist: structural elements only, no
 * event handlers, no styles, and only same-document links or data: images. Anything else is
 * dropped, its text kept.
 */

const ALLOWED = new Set([
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "p",
  "br",
  "hr",
  "blockquote",
  "pre",
  "code",
  "em",
  "strong",
  "b",
  "i",
  "u",
  "s",
  "sub",
  "sup",
  "small",
  "mark",
  "span",
  "div",
  "section",
  "article",
  "figure",
  "figcaption",
  "ul",
  "ol",
  "li",
  "dl",
  "dt",
  "dd",
  "table",
  "caption",
  "thead",
  "tbody",
  "tfoot",
  "tr",
  "th",
  "td",
  "a",
  "img",
]);
/** Elements dropped together with their content. */
const DROPPED = new Set([
  "script",
  "style",
  "template",
  "iframe",
  "object",
  "embed",
  "noscript",
  "head",
  "title",
  "svg",
  "math",
]);
const ATTRIBUTES: Record<string, string[]> = {
  th: ["colspan", "rowspan", "scope"],
  td: ["colspan", "rowspan"],
  ol: ["start"],
  a: ["href", "title"],
  img: ["src", "alt", "width", "height"],
};

function safeUrl(name: string, value: string): boolean {
  const trimmed = value.trim().toLowerCase();
  if (name === "href") return trimmed.startsWith("#");
  return trimmed.startsWith("data:image/");
}

function copy(source: Node, target: Node, doc: Document): void {
  for (const child of Array.from(source.childNodes)) {
    if (child.nodeType === Node.TEXT_NODE) {
      target.appendChild(doc.createTextNode(child.textContent ?? ""));
      continue;
    }
    if (child.nodeType !== Node.ELEMENT_NODE) continue;
    const element = child as Element;
    const tag = element.tagName.toLowerCase();
    if (DROPPED.has(tag)) continue;
    if (!ALLOWED.has(tag)) {
      copy(element, target, doc);
      continue;
    }
    const clean = doc.createElement(tag);
    for (const name of ATTRIBUTES[tag] ?? []) {
      const value = element.getAttribute(name);
      if (value === null) continue;
      if ((name === "href" || name === "src") && !safeUrl(name, value)) continue;
      clean.setAttribute(name, value);
    }
    copy(element, clean, doc);
    target.appendChild(clean);
  }
}

/** The body of `html` as a fragment of allowlisted nodes owned by `doc`. */
export function sanitizeHtml(html: string, doc: Document = document): DocumentFragment {
  const parsed = new DOMParser().parseFromString(html, "text/html");
  const fragment = doc.createDocumentFragment();
  copy(parsed.body, fragment, doc);
  return fragment;
}
