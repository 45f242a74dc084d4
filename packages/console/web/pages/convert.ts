/**
 * Convert (PLATFORM.md §16): upload one document or give its URL, convert it synchronously or as
 * a background task (polled with long-poll `wait`, progress shown), render the result beside the
 * original, offer a download. Markdown and HTML are rendered from the conversion API's own HTML
 * output (decision WC3); the original is shown by the browser itself (WC17).
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

type Pipeline = "fast" | "ocr" | "vlm";

const PIPELINES: Array<[Pipeline, string]> = [
  ["fast", "Fast"],
  ["ocr", "OCR"],
  ["vlm", "VLM (vision model)"],
];

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
let originalUrl: string | null = null;

/** What to convert: an uploaded file, or a URL the server fetches (`POST /v1/convert/source`). */
type Source = { kind: "file"; file: File } | { kind: "url"; url: string };

export function renderConvert(main: HTMLElement): void {
  const file = h("input", { id: "document", name: "document", type: "file" });
  const url = h("input", {
    id: "source-url",
    name: "url",
    type: "url",
    placeholder: "address of a document",
  });
  const output = h(
    "select",
    { id: "output", name: "output" },
    OUTPUTS.map(([value, label]) => h("option", { value }, label)),
  );
  const pipeline = h(
    "select",
    { id: "pipeline", name: "pipeline" },
    PIPELINES.map(([value, label]) => h("option", { value }, label)),
  );
  const background = h("input", { id: "background", type: "checkbox" });
  const submit = h("button", { type: "submit" }, "Convert");
  const progress = h("div", { class: "progress-area" });
  const result = h("section", { "aria-label": "Result", class: "result", hidden: true });
  const form = h(
    "form",
    { class: "card convert-form" },
    h("div", { class: "field" }, h("label", { for: "document" }, "Document"), file),
    h("div", { class: "field" }, h("label", { for: "source-url" }, "Or a URL"), url),
    h("div", { class: "field" }, h("label", { for: "pipeline" }, "Pipeline"), pipeline),
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
    const address = url.value.trim();
    const source: Source | null =
      chosen !== undefined
        ? { kind: "file", file: chosen }
        : address !== ""
          ? { kind: "url", url: address }
          : null;
    if (source === null) {
      replace(progress, alertBox("Choose a document or give its URL."));
      return;
    }
    const format = output.value as Format;
    submit.disabled = true;
    result.hidden = true;
    replace(progress, statusLine("Converting…"));
    try {
      const converted = await convert(
        source,
        pipeline.value as Pipeline,
        format,
        background.checked,
        progress,
      );
      await showResult(result, converted, format, source);
      // A background task keeps its finished progress bar; a direct conversion just says it is done.
      if (!background.checked) replace(progress, statusLine(`Converted ${sourceName(source)}.`));
    } catch (error) {
      replace(progress, alertBox(errorText(error)));
    } finally {
      submit.disabled = false;
    }
  });
  replace(
    main,
    heading("Convert"),
    h(
      "p",
      { class: "lede" },
      "Convert a document with POST /v1/convert/file (or a URL with /v1/convert/source) and look at the result beside the original.",
    ),
    form,
    progress,
    result,
  );
}

function sourceName(source: Source): string {
  if (source.kind === "file") return source.file.name;
  const path = new URL(source.url, location.href).pathname;
  return decodeURIComponent(path.split("/").pop() || "") || source.url;
}

async function convert(
  source: Source,
  pipeline: Pipeline,
  format: Format,
  background: boolean,
  progress: HTMLElement,
): Promise<ConversionResult> {
  // Markdown is shown rendered: the API's HTML of the same document is asked for alongside.
  const formats: Format[] = format === "MD" ? ["MD", "HTML"] : [format];
  let body: FormData | unknown;
  let path: string;
  if (source.kind === "file") {
    const form = new FormData();
    form.append("files", source.file, source.file.name);
    form.append("pipeline", pipeline);
    form.append("options", JSON.stringify({ outputFormats: formats }));
    body = form;
    path = "/v1/convert/file";
  } else {
    // Pipeline options sit one level down on the source endpoints (`options.options`).
    body = {
      sources: [{ kind: "http", url: source.url }],
      options: { pipeline, options: { outputFormats: formats } },
    };
    path = "/v1/convert/source";
  }
  if (!background) return (await api<ConversionResult>("POST", path, body)).body;
  let task = (await api<Task>("POST", `${path}/async`, body)).body;
  while (task.taskStatus === "pending" || task.taskStatus === "processing") {
    showProgress(progress, task);
    task = (await api<Task>("GET", `/v1/convert/tasks/${encodeURIComponent(task.taskId)}?wait=1`)).body;
  }
  showProgress(progress, task);
  return (await api<ConversionResult>("GET", `/v1/convert/tasks/${encodeURIComponent(task.taskId)}/result`))
    .body;
}

/**
 * The original beside the result, shown by the browser itself: a PDF in the browser's viewer
 * (only bytes that start with `%PDF-`, given the PDF type, so an uploaded page can never run as
 * this origin's HTML), an image as an image, plain text as text; a URL as a link to it.
 */
async function originalView(source: Source): Promise<Node> {
  if (originalUrl !== null) URL.revokeObjectURL(originalUrl);
  originalUrl = null;
  if (source.kind === "url") {
    return h("p", {}, h("a", { href: source.url, rel: "noreferrer", target: "_blank" }, source.url));
  }
  const file = source.file;
  const head = new Uint8Array(await file.slice(0, 5).arrayBuffer());
  if (String.fromCharCode(...head) === "%PDF-") {
    originalUrl = URL.createObjectURL(new Blob([file], { type: "application/pdf" }));
    return h("iframe", { src: originalUrl, title: "Original document", class: "original-frame" });
  }
  if (/^image\/(png|jpeg|gif|webp|bmp)$/.test(file.type)) {
    originalUrl = URL.createObjectURL(file);
    return h("img", { src: originalUrl, alt: `The original: ${file.name}`, class: "original-image" });
  }
  if (file.type.startsWith("text/") || /\.(md|markdown|txt|csv|tsv)$/i.test(file.name)) {
    const text = await file.slice(0, 200_000).text();
    return h("pre", { class: "plain", tabindex: "0" }, text);
  }
  return h("p", {}, `No preview of ${file.name} in the browser.`);
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

async function showResult(
  region: HTMLElement,
  result: ConversionResult,
  format: Format,
  source: Source,
): Promise<void> {
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
  const stem = sourceName(source).replace(/\.[^.]+$/, "") || "document";
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
    h(
      "div",
      { class: "result-pair" },
      h(
        "div",
        {},
        view,
        format === "MD"
          ? h("details", {}, h("summary", {}, "Markdown source"), h("pre", { class: "plain" }, content))
          : null,
      ),
      h(
        "section",
        { "aria-label": "Original", class: "original" },
        h("h3", {}, "Original"),
        await originalView(source),
      ),
    ),
  );
  region.hidden = false;
}
