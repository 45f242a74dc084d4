/**
 * Annotation queues (PLATFORM.md §16, §12): the queues, and the work loop of one queue —
 * claim the next item, look at its subject, record one score per score config, complete.
 */
import { api, errorText, get, type Page } from "../api.js";
import { alertBox, append, guarded, h, heading, replace, statusLine } from "../dom.js";
import { BASE } from "../router.js";

interface ScoreConfig {
  name: string;
  dataType: "NUMERIC" | "CATEGORICAL" | "BOOLEAN";
  min?: number | null;
  max?: number | null;
  categories?: string[] | null;
}

interface Queue {
  id: string;
  name: string;
  description: string | null;
  scoreConfigs: ScoreConfig[];
  status: string;
  counts: { pending: number; completed: number };
}

interface Item {
  id: string;
  subjectType: string;
  subjectId: string;
  status: string;
  lockedUntil: string | null;
}

/** Subjects the console has a page for. */
const SUBJECT_PAGES: Record<string, string> = { extraction: "extractions", trace: "traces" };

export async function renderAnnotationQueues(main: HTMLElement): Promise<void> {
  replace(main, heading("Annotation queues"));
  await guarded(main, async () => {
    const page = await get<Page<Queue>>("/v1/annotation-queues?size=100");
    if (page.content.length === 0) {
      main.appendChild(
        h(
          "p",
          { role: "status" },
          "No annotation queues. An Admin creates them with POST /v1/annotation-queues.",
        ),
      );
      return;
    }
    main.appendChild(
      h(
        "div",
        { class: "table-wrap" },
        h(
          "table",
          { "aria-label": "Annotation queues" },
          h(
            "thead",
            {},
            h(
              "tr",
              {},
              ["Queue", "Pending", "Completed", "Scores"].map((c) => h("th", { scope: "col" }, c)),
            ),
          ),
          h(
            "tbody",
            {},
            page.content.map((queue) =>
              h(
                "tr",
                {},
                h(
                  "td",
                  {},
                  h("a", { href: `${BASE}/annotation-queues/${encodeURIComponent(queue.id)}` }, queue.name),
                ),
                h("td", {}, String(queue.counts.pending)),
                h("td", {}, String(queue.counts.completed)),
                h("td", {}, queue.scoreConfigs.map((config) => config.name).join(", ")),
              ),
            ),
          ),
        ),
      ),
    );
  });
}

function scoreInput(config: ScoreConfig, index: number): { field: HTMLElement; read: () => unknown } {
  const id = `score-${index}`;
  const label = h("label", { for: id }, config.name);
  if (config.dataType === "BOOLEAN") {
    const input = h("input", { id, type: "checkbox" });
    return { field: h("div", { class: "field inline" }, input, label), read: () => input.checked };
  }
  if (config.dataType === "CATEGORICAL") {
    const select = h(
      "select",
      { id, required: true },
      h("option", { value: "" }, "Choose…"),
      (config.categories ?? []).map((category) => h("option", { value: category }, category)),
    );
    return { field: h("div", { class: "field" }, label, select), read: () => select.value };
  }
  const input = h("input", {
    id,
    type: "number",
    step: "any",
    required: true,
    min: config.min ?? null,
    max: config.max ?? null,
  });
  return { field: h("div", { class: "field" }, label, input), read: () => Number(input.value) };
}

export async function renderAnnotationQueue(main: HTMLElement, [id]: string[]): Promise<void> {
  replace(main, heading("Annotation queue"));
  const path = `/v1/annotation-queues/${encodeURIComponent(id ?? "")}`;
  await guarded(main, async () => {
    let queue = await get<Queue>(path);
    (main.querySelector("h1") as HTMLElement).textContent = queue.name;
    const counts = h("p", { class: "result-meta" });
    const showCounts = () => {
      counts.textContent = `${queue.counts.pending} pending · ${queue.counts.completed} completed · ${queue.status}`;
    };
    showCounts();
    const status = statusLine(queue.counts.pending === 0 ? "No items pending in this queue." : "");
    const work = h("section", { "aria-label": "Claimed item", class: "card", hidden: true });
    const claim = h("button", { type: "button" }, "Claim next");
    const refresh = async () => {
      queue = await get<Queue>(path);
      showCounts();
    };
    const show = (item: Item) => {
      const inputs = queue.scoreConfigs.map(scoreInput);
      const page = SUBJECT_PAGES[item.subjectType];
      const subject = h(
        "p",
        { class: "subject" },
        "Subject: ",
        h("strong", {}, item.subjectType),
        " ",
        page === undefined
          ? h("code", {}, item.subjectId)
          : h("a", { href: `${BASE}/${page}/${encodeURIComponent(item.subjectId)}` }, item.subjectId),
      );
      const feedback = h("div", {});
      const complete = h("button", { type: "submit" }, "Complete");
      const form = h(
        "form",
        { class: "score-form" },
        inputs.map((input) => input.field),
        complete,
        feedback,
      );
      form.addEventListener("submit", async (event) => {
        event.preventDefault();
        complete.disabled = true;
        try {
          await api("PATCH", `${path}/items/${encodeURIComponent(item.id)}`, {
            status: "COMPLETED",
            scores: queue.scoreConfigs.map((config, i) => ({ name: config.name, value: inputs[i]?.read() })),
          });
          work.hidden = true;
          replace(work);
          await refresh();
          status.textContent = `Completed item ${item.id}.${queue.counts.pending === 0 ? " No items pending in this queue." : ""}`;
          claim.focus();
        } catch (error) {
          replace(feedback, alertBox(errorText(error)));
        } finally {
          complete.disabled = false;
        }
      });
      replace(work, h("h2", {}, `Item ${item.id}`), subject, form);
      work.hidden = false;
      (form.querySelector("input, select") as HTMLElement | null)?.focus();
    };
    claim.addEventListener("click", async () => {
      claim.disabled = true;
      status.textContent = "Claiming…";
      try {
        const { status: code, body } = await api<Item>("POST", `${path}/items/claim`);
        if (code === 204 || body === null) {
          work.hidden = true;
          replace(work);
          status.textContent = "No items left to claim in this queue.";
        } else {
          status.textContent = `Claimed item ${body.id}${body.lockedUntil ? ` (locked until ${new Date(body.lockedUntil).toLocaleTimeString()})` : ""}.`;
          show(body);
        }
      } catch (error) {
        status.textContent = errorText(error);
      } finally {
        claim.disabled = false;
      }
    });
    append(
      main,
      counts,
      queue.description ? h("p", {}, queue.description) : null,
      h("div", { class: "actions" }, claim),
      status,
      work,
      h("p", {}, h("a", { href: `${BASE}/annotation-queues` }, "All annotation queues")),
    );
  });
}
