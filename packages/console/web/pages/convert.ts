/**
 * Convert (PLATFORM.md §16): upload one document, convert it synchronously or as a background
 * task (polled with long-poll `wait`, progress shown), render the result, offer a download.
 * Markdown and HTML are rendered from the conversion API's own HTML output (decision WC3).
 */
import { api, errorText } from "../api.js";
import { alertBox, h, heading, replace, statusLine } from "../dom.js";
import { sanitizeHtml } from "../sanitize-html.js";

type Format = "MD" | "HTML" | "TEXT" | "JSON";

interface ConvertedDocument {
  filename: string;
  mdContent?: string;
  htmlContent?: string;
  textContent?: string;
  jsonContent?: unknown;
}

interface ConversionResult {
  status: string;
  documents: ConvertedDocument[];
  errors: Array<{ message?: string; errorMessage?: string }>;
}

interface Task {
  taskId: string;
  taskStatus: "pending" | "processing" | "success" | "failure" | string;
  taskMeta: { numDocs: number; numProcessed: number };
}

const OUTPUTS: Array<[Format, string]> = [
  ["MD", "Markdown"],
  ["HTML", "HTML"],
  ["TEXT", "Text"],
  ["JSON", "JSON"],
];

const DOWNLOAD: Record<Format, { extension: string; type: string }> = {
  MD: { extension: "md", type: "text/markdown" },
  HTML: { extension: "html", type: "text/html" },
  TEXT: { extension: "txt", type: "text/plain" },
  JSON: { extension: "json", type: "application/json" },
};

let downloadUrl: string | null = null;

export function renderConvert(main: HTMLElement): void {
  const file = h("input", { id: "document", name: "document", type: "file", required: true });
  const output = h(
    "select",
    { id: "output", name: "output" },
    OUTPUTS.map(([value, label]) => h("option", { value }, label)),
  );
  const background = h("input", { id: "background", type: "checkbox" });
  const submit = h("button", { type: "submit" }, "Convert");
  const progress = h("div", { class: "progress-area" });
  const result = h("section", { "aria-label": "Result", class: "result", hidden: true });
  const form = h(
    "form",
    { class: "card convert-form" },
    h("div", { class: "field" }, h("label", { for: "document" }, "Document"), file),
    h("div", { class: "field" }, h("label", { for: "output" }, "Output"), output),
    h(
      "div",
      { class: "field inline" },
      background,
      h("label", { for: "background" }, "Run as background task"),
    ),
    submit,
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const chosen = file.files?.[0];
    if (!chosen) return;
    const format = output.value as Format;
    submit.disabled = true;
    result.hidden = true;
    replace(progress, statusLine("Converting…"));
    try {
      const converted = await convert(chosen, format, background.checked, progress);
      showResult(result, converted, format, chosen);
      // A background task keeps its finished progress bar; a direct conversion just says it is done.
      if (!background.checked) replace(progress, statusLine(`Converted ${chosen.name}.`));
    } catch (error) {
      replace(progress, alertBox(errorText(error)));
    } finally {
      submit.disabled = false;
    }
  });
  replace(
    main,
    heading("Convert"),
    h("p", { class: "lede" }, "Convert a document with POST /v1/convert/file and look at the result."),
    form,
    progress,
    result,
  );
}

async function convert(
  file: File,
  format: Format,
  background: boolean,
  progress: HTMLElement,
): Promise<ConversionResult> {
  const form = new FormData();
  form.append("files", file, file.name);
  // Markdown is shown rendered: the API's HTML of the same document is asked for alongside.
  const formats: Format[] = format === "MD" ? ["MD", "HTML"] : [format];
  form.append("options", JSON.stringify({ outputFormats: formats }));
  if (!background) return (await api<ConversionResult>("POST", "/v1/convert/file", form)).body;
  let task = (await api<Task>("POST", "/v1/convert/file/async", form)).body;
  while (task.taskStatus === "pending" || task.taskStatus === "processing") {
    showProgress(progress, task);
    task = (await api<Task>("GET", `/v1/convert/tasks/${encodeURIComponent(task.taskId)}?wait=1`)).body;
  }
  showProgress(progress, task);
  return (await api<ConversionResult>("GET", `/v1/convert/tasks/${encodeURIComponent(task.taskId)}/result`))
    .body;
}

function showProgress(progress: HTMLElement, task: Task): void {
  const { numDocs, numProcessed } = task.taskMeta;
  replace(
    progress,
    h("label", { for: "conversion-progress" }, "Conversion progress"),
    h("progress", { id: "conversion-progress", max: Math.max(numDocs, 1), value: numProcessed }),
    statusLine(`Task ${task.taskId}: ${task.taskStatus}, ${numProcessed} of ${numDocs} documents processed`),
  );
}

function showResult(region: HTMLElement, result: ConversionResult, format: Format, original: File): void {
  const document0 = result.documents[0];
  if (document0 === undefined) {
    const reasons = result.errors.map((e) => e.errorMessage ?? e.message ?? "").join("; ");
    replace(region, h("h2", {}, "Result"), alertBox(`The conversion failed (${result.status}): ${reasons}`));
    region.hidden = false;
    return;
  }
  const content =
    format === "MD"
      ? (document0.mdContent ?? "")
      : format === "HTML"
        ? (document0.htmlContent ?? "")
        : format === "TEXT"
          ? (document0.textContent ?? "")
          : JSON.stringify(document0.jsonContent ?? null, null, 2);
  if (downloadUrl !== null) URL.revokeObjectURL(downloadUrl);
  downloadUrl = URL.createObjectURL(new Blob([content], { type: DOWNLOAD[format].type }));
  const stem = original.name.replace(/\.[^.]+$/, "") || "document";
  let view: Node;
  if (format === "MD" || format === "HTML") {
    view = h("div", { class: "rendered" }, sanitizeHtml(document0.htmlContent ?? ""));
  } else {
    view = h("pre", { class: "plain", tabindex: "0" }, content);
  }
  replace(
    region,
    h("h2", {}, "Result"),
    h(
      "p",
      { class: "result-meta" },
      `${document0.filename} · ${result.status} · `,
      h("a", { href: downloadUrl, download: `${stem}.${DOWNLOAD[format].extension}` }, "Download"),
    ),
    view,
    format === "MD"
      ? h("details", {}, h("summary", {}, "Markdown source"), h("pre", { class: "plain" }, content))
      : null,
  );
  region.hidden = false;
}
