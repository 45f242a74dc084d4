/** The console's entry: the shell (navigation, sign-out) around the page of the current path. */
import { clearKey, storedKey } from "./api.js";
import { h, replace } from "./dom.js";
import { renderAnnotationQueue, renderAnnotationQueues } from "./pages/annotation-queues.js";
import { renderConvert } from "./pages/convert.js";
import { renderExtraction, renderExtractions } from "./pages/extractions.js";
import { renderKnowledgeBase, renderKnowledgeBases } from "./pages/knowledge-bases.js";
import { renderSignIn } from "./pages/sign-in.js";
import { renderTrace, renderTraces } from "./pages/traces.js";
import {
  BASE,
  currentPath,
  interceptLinks,
  match,
  navigate,
  type Route,
  setNavigateHandler,
} from "./router.js";

const NAVIGATION: Array<[string, string]> = [
  ["Convert", "/convert"],
  ["Extractions", "/extractions"],
  ["Knowledge bases", "/knowledge-bases"],
  ["Traces", "/traces"],
  ["Annotation queues", "/annotation-queues"],
];

const ID = "([^/]+)";
const ROUTES: Route[] = [
  { pattern: /^\/convert$/, render: renderConvert },
  { pattern: /^\/extractions$/, render: renderExtractions },
  { pattern: new RegExp(`^/extractions/${ID}$`), render: renderExtraction },
  { pattern: /^\/knowledge-bases$/, render: renderKnowledgeBases },
  { pattern: new RegExp(`^/knowledge-bases/${ID}$`), render: renderKnowledgeBase },
  { pattern: /^\/traces$/, render: renderTraces },
  { pattern: new RegExp(`^/traces/${ID}$`), render: renderTrace },
  { pattern: /^\/annotation-queues$/, render: renderAnnotationQueues },
  { pattern: new RegExp(`^/annotation-queues/${ID}$`), render: renderAnnotationQueue },
];

const app = document.getElementById("app") as HTMLElement;

function shell(path: string): HTMLElement {
  const main = h("main", { id: "main", tabindex: "-1" });
  const links = NAVIGATION.map(([label, href]) => {
    const current = path === href || path.startsWith(`${href}/`);
    return h("li", {}, h("a", { href: `${BASE}${href}`, "aria-current": current ? "page" : null }, label));
  });
  const signOut = h("button", { type: "button", class: "secondary" }, "Sign out");
  signOut.addEventListener("click", () => {
    clearKey();
    navigate(`${BASE}/`);
  });
  replace(
    app,
    h("a", { href: "#main", class: "skip-link" }, "Skip to content"),
    h(
      "header",
      { class: "top" },
      h("span", { class: "brand" }, "Groundwork"),
      h("nav", { "aria-label": "Console" }, h("ul", {}, links)),
      signOut,
    ),
    main,
  );
  return main;
}

async function render(): Promise<void> {
  const path = currentPath();
  if (storedKey() === null) {
    const main = h("main", { id: "main", tabindex: "-1" });
    replace(app, main);
    renderSignIn(main, () => navigate(`${BASE}${path === "/" ? "/convert" : path}`, true));
    return;
  }
  if (path === "/") {
    navigate(`${BASE}/convert`, true);
    return;
  }
  const main = shell(path);
  const found = match(ROUTES, path);
  if (found === null) {
    document.title = "Not found · Groundwork";
    replace(
      main,
      h("h1", { tabindex: "-1" }, "Not found"),
      h("p", {}, `No console page at ${location.pathname}.`),
    );
  } else {
    await found.route.render(main, found.params);
  }
  // Move focus to the new page's heading so keyboard and screen-reader users land on it.
  (main.querySelector("h1") as HTMLElement | null)?.focus({ preventScroll: true });
}

setNavigateHandler(() => void render());
interceptLinks(document);
void render();
