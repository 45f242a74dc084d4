/** Client-side routes under /console/ (the server answers index.html for every deep link). */

export const BASE = "/console";

export type PageRender = (main: HTMLElement, params: string[]) => void | Promise<void>;

export interface Route {
  pattern: RegExp;
  render: PageRender;
}

let onNavigate: () => void = () => {};

export function setNavigateHandler(handler: () => void): void {
  onNavigate = handler;
}

/** Goes to a console path without reloading the page. */
export function navigate(path: string, replace = false): void {
  if (replace) history.replaceState(null, "", path);
  else history.pushState(null, "", path);
  onNavigate();
}

/** The console-relative path of the current location ("/convert", "/" …). */
export function currentPath(): string {
  const path = location.pathname.startsWith(BASE) ? location.pathname.slice(BASE.length) : location.pathname;
  return path === "" ? "/" : path.replace(/\/+$/, "") || "/";
}

export function match(routes: Route[], path: string): { route: Route; params: string[] } | null {
  for (const route of routes) {
    const found = route.pattern.exec(path);
    if (found) return { route, params: found.slice(1).map((part) => decodeURIComponent(part)) };
  }
  return null;
}

/** Same-origin links to /console/ paths navigate in place (modifier keys keep the browser's way). */
export function interceptLinks(root: Document): void {
  root.addEventListener("click", (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey)
      return;
    const anchor = (event.target as Element | null)?.closest?.("a");
    if (!anchor || anchor.hasAttribute("download") || anchor.target === "_blank") return;
    const url = new URL(anchor.href, location.href);
    if (url.origin !== location.origin || !url.pathname.startsWith(`${BASE}/`)) return;
    event.preventDefault();
    navigate(url.pathname + url.search);
  });
  window.addEventListener("popstate", () => onNavigate());
}
