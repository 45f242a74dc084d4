/**
 * Extractions (PLATFORM.md §16): the organization's extractions, and one extraction's review —
 * its input text with every grounded value marked at its spans beside the table of fields.
 */
import { api, errorText, get, type Page } from "../api.js";
import { alertBox, append, guarded, h, heading, replace } from "../dom.js";
import {
  type FieldRow,
  fieldRows,
  markRanges,
  reviewScoreName,
  type Scoring,
  segments,
} from "../grounded-fields.js";
import { BASE } from "../router.js";

interface Extraction {
  id: string;
  schemaId: string;
  status: string;
  model: string | null;
  errorMessage: string | null;
  createdAt: string;
  inputText?: string | null;
  result: {
    structuredOutput?: unknown;
    resultMetadata?: {
      scoring?: Scoring | null;
      schemaValidation?: {
        applied: boolean;
        violations: Array<{ fieldPath: string; message: string }>;
      } | null;
    };
  } | null;
}

export async function renderExtractions(main: HTMLElement): Promise<void> {
  replace(main, heading("Extractions"));
  await guarded(main, async () => {
    const page = await get<Page<Extraction>>("/v1/extractions?size=100");
    if (page.content.length === 0) {
      main.appendChild(h("p", { role: "status" }, "No extractions yet."));
      return;
    }
    append(
      main,
      h(
        "div",
        { class: "table-wrap" },
        h(
          "table",
          { "aria-label": "Extractions" },
          h(
            "thead",
            {},
            h(
              "tr",
              {},
              ["Extraction", "Status", "Model", "Created"].map((c) => h("th", { scope: "col" }, c)),
            ),
          ),
          h(
            "tbody",
            {},
            page.content.map((extraction) =>
              h(
                "tr",
                {},
                h(
                  "td",
                  {},
                  h("a", { href: `${BASE}/extractions/${encodeURIComponent(extraction.id)}` }, extraction.id),
                ),
                h("td", {}, extraction.status),
                h("td", {}, extraction.model ?? "—"),
                h("td", {}, new Date(extraction.createdAt).toLocaleString()),
              ),
            ),
          ),
        ),
      ),
      page.totalElements > page.content.length
        ? h("p", { class: "hint" }, `Showing the newest ${page.content.length} of ${page.totalElements}.`)
        : null,
    );
  });
}

function display(value: unknown): string {
  if (value === undefined) return "—";
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** The input text with each mark range wrapped in `<mark data-pointer>` (nested where marks overlap). */
function sourceView(text: string, rows: FieldRow[]): HTMLElement {
  const ranges = markRanges(text, rows);
  const keys = new Map(rows.map((row) => [row.pointer, row.key]));
  const pre = h("pre", { class: "source-text" });
  for (const segment of segments(text.length, ranges)) {
    const piece = text.slice(segment.start, segment.end);
    let node: Node = document.createTextNode(piece);
    for (const pointer of [...segment.pointers].reverse()) {
      node = h(
        "mark",
        { "data-pointer": pointer, tabindex: "-1", title: keys.get(pointer) ?? pointer },
        node,
      );
    }
    pre.appendChild(node);
  }
  return pre;
}

function focusMark(source: HTMLElement, pointer: string, status: HTMLElement): void {
  const mark = source.querySelector<HTMLElement>(`mark[data-pointer="${CSS.escape(pointer)}"]`);
  if (mark === null) {
    status.textContent = `${pointer} is not located in the source.`;
    return;
  }
  status.textContent = "";
  for (const active of source.querySelectorAll("mark.active")) active.classList.remove("active");
  for (const same of source.querySelectorAll(`mark[data-pointer="${CSS.escape(pointer)}"]`))
    same.classList.add("active");
  mark.scrollIntoView({ block: "center" });
  mark.focus({ preventScroll: true });
}

/**
 * Accept or correct the value of the selected field, recorded as a HUMAN score on the extraction
 * (decision WC16): BOOLEAN `field.<path>`, true = accepted; false = corrected, the comment holding
 * `{pointer, value}` with the corrected value.
 */
function reviewPanel(extractionId: string): { panel: HTMLElement; select(row: FieldRow): void } {
  const panel = h("section", { "aria-label": "Review field", class: "review-field", hidden: true });
  const select = (row: FieldRow) => {
    const corrected = h("input", { id: "corrected-value", type: "text", autocomplete: "off" });
    const status = h("p", { role: "status", class: "status" });
    const record = async (value: boolean, comment: string | null) => {
      try {
        const { body } = await api<{ id: string }>("POST", "/v1/scores", {
          subjectType: "extraction",
          subjectId: extractionId,
          name: reviewScoreName(row.pointer),
          dataType: "BOOLEAN",
          value,
          ...(comment === null ? {} : { comment }),
        });
        status.textContent = `Recorded ${value ? "acceptance" : "correction"} of ${row.key} as score ${body.id}.`;
      } catch (error) {
        status.textContent = "";
        status.after(alertBox(errorText(error)));
      }
    };
    const accept = h("button", { type: "button" }, "Accept value");
    accept.addEventListener("click", () => void record(true, null));
    const form = h(
      "form",
      { class: "filters" },
      h("div", { class: "field grow" }, h("label", { for: "corrected-value" }, "Corrected value"), corrected),
      h("button", { type: "submit", class: "secondary" }, "Record correction"),
    );
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      void record(false, JSON.stringify({ pointer: row.pointer, value: corrected.value }));
    });
    replace(
      panel,
      h("h3", {}, "Review ", h("code", {}, row.key)),
      h("p", {}, `Extracted value: ${display(row.value)}`),
      h("div", { class: "actions" }, accept),
      form,
      status,
    );
    panel.hidden = false;
  };
  return { panel, select };
}

function fieldsTable(
  rows: FieldRow[],
  source: HTMLElement,
  status: HTMLElement,
  onSelect: (row: FieldRow) => void,
): HTMLElement {
  const body = h("tbody", {});
  for (const row of rows) {
    const tr = h(
      "tr",
      { tabindex: "0", "data-pointer": row.pointer, class: "activatable", title: "Show in the source" },
      h("th", { scope: "row" }, h("code", {}, row.key)),
      h("td", {}, display(row.value)),
      h(
        "td",
        {},
        row.confidence === null ? "—" : row.confidence.toFixed(2),
        row.basis ? h("span", { class: "basis" }, ` ${row.basis}`) : null,
      ),
      h(
        "td",
        {},
        row.flags.length === 0
          ? ""
          : row.flags.map((flag) => h("span", { class: "flag" }, `${flag.source} < ${flag.threshold}`)),
      ),
    );
    const activate = () => {
      for (const selected of body.querySelectorAll("tr.selected")) selected.classList.remove("selected");
      tr.classList.add("selected");
      onSelect(row);
      focusMark(source, row.pointer, status);
    };
    tr.addEventListener("click", activate);
    tr.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        activate();
      }
    });
    body.appendChild(tr);
  }
  return h(
    "table",
    { "aria-label": "Fields", class: "fields" },
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        ["Field", "Value", "Confidence", "Flags"].map((c) => h("th", { scope: "col" }, c)),
      ),
    ),
    body,
  );
}

export async function renderExtraction(main: HTMLElement, [id]: string[]): Promise<void> {
  replace(main, heading(`Extraction ${id}`));
  await guarded(main, async () => {
    const extraction = await get<Extraction>(`/v1/extractions/${encodeURIComponent(id ?? "")}`);
    const metadata = extraction.result?.resultMetadata;
    const rows = fieldRows(extraction.result?.structuredOutput, metadata?.scoring);
    const text = extraction.inputText ?? "";
    const source = h(
      "section",
      { "aria-label": "Source", class: "source" },
      h("h2", {}, "Source"),
      sourceView(text, rows),
    );
    const status = h("p", { role: "status", class: "status" });
    const review = reviewPanel(extraction.id);
    const violations = metadata?.schemaValidation?.violations ?? [];
    append(
      main,
      h(
        "p",
        { class: "result-meta" },
        `${extraction.status} · ${extraction.model ?? "no model"} · schema ${extraction.schemaId} · `,
        h("a", { href: `${BASE}/extractions`, class: "back" }, "All extractions"),
      ),
      extraction.errorMessage ? h("p", { role: "alert", class: "alert" }, extraction.errorMessage) : null,
      h(
        "div",
        { class: "review" },
        source,
        h(
          "section",
          { "aria-label": "Extracted fields", class: "fields-panel" },
          h("h2", {}, "Fields"),
          rows.length === 0
            ? h("p", {}, "No scored fields.")
            : h("div", { class: "table-wrap" }, fieldsTable(rows, source, status, review.select)),
          status,
          review.panel,
          violations.length === 0
            ? null
            : h(
                "div",
                { class: "violations" },
                h("h3", {}, "Schema validation"),
                h(
                  "ul",
                  {},
                  violations.map((violation) => {
                    const button = h(
                      "button",
                      { type: "button", class: "link" },
                      violation.fieldPath || "(root)",
                    );
                    button.addEventListener("click", () => {
                      const row = main.querySelector<HTMLElement>(
                        `tr[data-pointer="${CSS.escape(violation.fieldPath)}"]`,
                      );
                      row?.focus();
                      if (row) row.scrollIntoView({ block: "center" });
                    });
                    return h("li", {}, button, ` ${violation.message}`);
                  }),
                ),
              ),
        ),
      ),
    );
  });
}
