/**
 * `pnpm fidelity`: the four metrics of issue #23 per format and overall, Groundwork beside the naive
 * baseline measured in the same run. `--files` adds one line per corpus file; `--json` prints JSON.
 */
import { DocumentConverter } from "../src/index.js";
import { evaluateCorpus, type Summary } from "./evaluate.js";
import { METRIC_NAMES } from "./metrics.js";

const LABELS: Record<(typeof METRIC_NAMES)[number], string> = {
  wordF1: "word F1",
  headingRecall: "heading recall",
  tableCellF1: "table-cell F1",
  readingOrder: "reading order",
};

function cell(value: number | null): string {
  return value === null ? "–" : value.toFixed(3);
}

function pair(ours: Summary, naive: Summary, name: (typeof METRIC_NAMES)[number]): string {
  return `${cell(ours[name])} / ${cell(naive[name])}`;
}

const converter = new DocumentConverter({ workers: 1 });
try {
  const verbose = process.argv.includes("--verbose");
  const report = await evaluateCorpus(converter, (file, ms) => {
    if (verbose) process.stderr.write(`${file} ${Math.round(ms)} ms\n`);
  });
  if (process.argv.includes("--json")) {
    process.stdout.write(`${JSON.stringify(report.formats, null, 2)}\n`);
  } else {
    const lines = [
      "Fidelity on packages/convert/fidelity/corpus: Groundwork / naive baseline (same run)",
      "",
      `| format | files | ${METRIC_NAMES.map((m) => LABELS[m]).join(" | ")} |`,
      `| --- | --- |${METRIC_NAMES.map(() => " --- |").join("")}`,
      ...report.formats.map(
        (f) =>
          `| ${f.format} | ${f.files} | ${METRIC_NAMES.map((m) => pair(f.groundwork, f.naive, m)).join(" | ")} |`,
      ),
    ];
    if (process.argv.includes("--files")) {
      lines.push(
        "",
        "| file | word F1 | heading recall | table-cell F1 | reading order |",
        "| --- | --- | --- | --- | --- |",
      );
      for (const f of report.files) {
        lines.push(
          `| ${f.format}/${f.file} | ${METRIC_NAMES.map((m) => `${cell(f.groundwork[m])} / ${cell(f.naive[m])}`).join(" | ")} |`,
        );
      }
    }
    process.stdout.write(`${lines.join("\n")}\n`);
  }
} finally {
  await converter.close();
}
