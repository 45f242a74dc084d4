import { errorText } from "./api.js";

/** A tiny element builder: the console is plain DOM, no framework (decision WC1). */

type Leaf = Node | string | number | null | undefined | false;
export type Child = Leaf | Child[];
type Attributes = Record<string, string | number | boolean | null | undefined | EventListener>;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (typeof value === "function") element.addEventListener(name.replace(/^on/, "").toLowerCase(), value);
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  append(element, ...children);
  return element;
}

export function append(parent: Node, ...children: Child[]): void {
  for (const child of (children as unknown[]).flat(Number.POSITIVE_INFINITY) as Leaf[]) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === "object" ? child : document.createTextNode(String(child)));
  }
}

/** Replaces an element's children. */
export function replace(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, ...children);
}

/** A live status line (role=status) that screen readers announce. */
export function statusLine(text = ""): HTMLParagraphElement {
  return h("p", { role: "status", class: "status" }, text);
}

/** An error shown as an alert. */
export function alertBox(text: string): HTMLDivElement {
  return h("div", { role: "alert", class: "alert" }, text);
}

export function formatNumber(value: number | null | undefined, digits = 0): string {
  return value === null || value === undefined ? "—" : value.toFixed(digits);
}

/** The page's heading (focus target after navigation) and the document title. */
export function heading(title: string): HTMLHeadingElement {
  document.title = `${title} · Groundwork`;
  return h("h1", { tabindex: "-1" }, title);
}

/** Runs a page's loading step; a failure shows as an alert in `where` instead of a blank page. */
export async function guarded(where: Element, run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (error) {
    where.appendChild(alertBox(errorText(error)));
  }
}
