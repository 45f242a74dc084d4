/** Traces (PLATFORM.md §16): the list with name, status, model and tokens; a trace's span tree. */
import { get, type Page } from "../api.js";
import { append, guarded, h, heading, replace } from "../dom.js";
import { BASE } from "../router.js";

interface Trace {
  id: string;
  name: string;
  status: string;
  model: string | null;
  kind: string;
  startTime: string;
  durationMs: number;
  inputTokens: number | null;
  outputTokens: number | null;
  costEur: number | null;
  spanCount: number;
}

interface Span {
  id: string;
  name: string;
  status: string;
  durationMs: number;
  attributes: Record<string, unknown>;
  children: Span[];
}

export function tokens(trace: { inputTokens: number | null; outputTokens: number | null }): string {
  if (trace.inputTokens === null && trace.outputTokens === null) return "—";
  return `${trace.inputTokens ?? 0} in / ${trace.outputTokens ?? 0} out`;
}

export function duration(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms * 10) / 10} ms`;
}

export async function renderTraces(main: HTMLElement): Promise<void> {
  replace(main, heading("Traces"));
  const filter = h("input", { id: "trace-model", type: "search", name: "model" });
  const statusSelect = h(
    "select",
    { id: "trace-status" },
    h("option", { value: "" }, "Any"),
    h("option", { value: "ok" }, "ok"),
    h("option", { value: "error" }, "error"),
  );
  // The API lists the last 24 hours unless given `from`, and spans at most 31 days.
  const since = h(
    "select",
    { id: "trace-since" },
    h("option", { value: "" }, "Last 24 hours"),
    h("option", { value: "7" }, "Last 7 days"),
    h("option", { value: "31" }, "Last 31 days"),
  );
  const list = h("div", {});
  const load = () => {
    const query = new URLSearchParams({ size: "100" });
    if (since.value !== "") {
      // A minute inside the API's limit, so a slow click never asks for more than 31 days.
      const days = Number(since.value);
      query.set("from", new Date(Date.now() - days * 86_400_000 + 60_000).toISOString());
    }
    if (filter.value.trim() !== "") query.set("model", filter.value.trim());
    if (statusSelect.value !== "") query.set("status", statusSelect.value);
    replace(list);
    return guarded(list, async () => {
      const page = await get<Page<Trace>>(`/v1/traces?${query}`);
      if (page.content.length === 0) {
        list.appendChild(
          h(
            "p",
            { role: "status" },
            "No traces. Tracing is off unless an Admin enables it (PUT /v1/tracing/settings).",
          ),
        );
        return;
      }
      list.appendChild(
        h(
          "div",
          { class: "table-wrap" },
          h(
            "table",
            { "aria-label": "Traces" },
            h(
              "thead",
              {},
              h(
                "tr",
                {},
                ["Name", "Status", "Model", "Tokens", "Duration", "Started"].map((c) =>
                  h("th", { scope: "col" }, c),
                ),
              ),
            ),
            h(
              "tbody",
              {},
              page.content.map((trace) =>
                h(
                  "tr",
                  {},
                  h("td", {}, h("a", { href: `${BASE}/traces/${encodeURIComponent(trace.id)}` }, trace.name)),
                  h("td", {}, trace.status),
                  h("td", {}, trace.model ?? "—"),
                  h("td", {}, tokens(trace)),
                  h("td", {}, duration(trace.durationMs)),
                  h("td", {}, new Date(trace.startTime).toLocaleString()),
                ),
              ),
            ),
          ),
        ),
      );
    });
  };
  const form = h(
    "form",
    { class: "filters", role: "search", "aria-label": "Filter traces" },
    h("div", { class: "field" }, h("label", { for: "trace-model" }, "Model"), filter),
    h("div", { class: "field" }, h("label", { for: "trace-status" }, "Status"), statusSelect),
    h("div", { class: "field" }, h("label", { for: "trace-since" }, "Since"), since),
    h("button", { type: "submit", class: "secondary" }, "Filter"),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    void load();
  });
  append(main, form, list);
  await load();
}

function treeItem(span: Span, level: number): HTMLLIElement {
  const label = h(
    "span",
    { class: "span-label" },
    h("span", { class: "span-name" }, span.name),
    " ",
    h("span", { class: "duration" }, duration(span.durationMs)),
    span.status.toLowerCase() === "error" ? h("span", { class: "flag" }, "error") : null,
  );
  const item = h(
    "li",
    { role: "treeitem", tabindex: "-1", "aria-level": level, "data-span-id": span.id },
    label,
  );
  if (span.children.length > 0) {
    item.setAttribute("aria-expanded", "true");
    item.appendChild(
      h(
        "ul",
        { role: "group" },
        span.children.map((child) => treeItem(child, level + 1)),
      ),
    );
  }
  return item;
}

/** Arrow keys move between visible items; Left/Right collapse and expand (WAI-ARIA tree pattern). */
function keyboardTree(tree: HTMLElement): void {
  const visible = () =>
    Array.from(tree.querySelectorAll<HTMLElement>('[role="treeitem"]')).filter(
      (item) => !item.parentElement?.closest('[aria-expanded="false"]'),
    );
  const first = visible()[0];
  if (first) first.tabIndex = 0;
  tree.addEventListener("keydown", (event) => {
    const current = (event.target as HTMLElement).closest<HTMLElement>('[role="treeitem"]');
    if (current === null) return;
    const items = visible();
    const at = items.indexOf(current);
    let target: HTMLElement | undefined;
    if (event.key === "ArrowDown") target = items[at + 1];
    else if (event.key === "ArrowUp") target = items[at - 1];
    else if (event.key === "Home") target = items[0];
    else if (event.key === "End") target = items[items.length - 1];
    else if (event.key === "ArrowRight" && current.getAttribute("aria-expanded") === "false") {
      current.setAttribute("aria-expanded", "true");
    } else if (event.key === "ArrowLeft" && current.getAttribute("aria-expanded") === "true") {
      current.setAttribute("aria-expanded", "false");
    } else return;
    event.preventDefault();
    if (target) {
      for (const item of items) item.tabIndex = -1;
      target.tabIndex = 0;
      target.focus();
    }
  });
}

export async function renderTrace(main: HTMLElement, [id]: string[]): Promise<void> {
  replace(main, heading("Trace"));
  await guarded(main, async () => {
    const trace = await get<Trace & { spans: Span[] }>(`/v1/traces/${encodeURIComponent(id ?? "")}`);
    (main.querySelector("h1") as HTMLElement).textContent = `Trace ${trace.name}`;
    const tree = h(
      "ul",
      { role: "tree", "aria-label": "Spans", class: "span-tree" },
      trace.spans.map((span) => treeItem(span, 1)),
    );
    keyboardTree(tree);
    append(
      main,
      h(
        "dl",
        { class: "facts" },
        [
          ["Status", trace.status],
          ["Model", trace.model ?? "—"],
          ["Tokens", tokens(trace)],
          ["Cost", trace.costEur === null ? "—" : `€${trace.costEur.toFixed(6)}`],
          ["Duration", duration(trace.durationMs)],
          ["Spans", String(trace.spanCount)],
        ].map(([term, value]) => [h("dt", {}, term), h("dd", {}, value)]),
      ),
      h("h2", {}, "Spans"),
      tree,
      h("p", {}, h("a", { href: `${BASE}/traces` }, "All traces")),
    );
  });
}
