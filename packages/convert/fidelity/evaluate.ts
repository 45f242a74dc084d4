/**
 * Runs the fidelity corpus through Groundwork's converter and the naive baseline and scores both
 * against the ground truth, per file, per format and overall (overall = mean over all files).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { DocumentConverter } from "../src/index.js";
import { type FidelityScores, type MetricName, meanScores, scoreDocument } from "./metrics.js";
import { type CorpusFormat, naiveConvert } from "./naive.js";

export const CORPUS_DIR = fileURLToPath(new URL("./corpus/", import.meta.url));
export const CORPUS_FORMATS: CorpusFormat[] = ["pdf", "docx", "pptx", "xlsx", "html", "md"];

export interface CorpusFile {
  format: CorpusFormat;
  file: string;
  path: string;
  truthPath: string;
}

export interface FileResult extends CorpusFile {
  groundwork: FidelityScores;
  naive: FidelityScores;
  groundworkMarkdown: string;
}

export type Summary = Record<MetricName, number | null>;

export interface FidelityReport {
  files: FileResult[];
  formats: Array<{ format: CorpusFormat | "overall"; files: number; groundwork: Summary; naive: Summary }>;
}

export function corpusFiles(): CorpusFile[] {
  const out: CorpusFile[] = [];
  for (const format of CORPUS_FORMATS) {
    const dir = join(CORPUS_DIR, format);
    for (const file of readdirSync(dir).sort()) {
      if (file.endsWith(".truth.md")) continue;
      const base = file.replace(/\.[a-z]+$/, "");
      out.push({ format, file, path: join(dir, file), truthPath: join(dir, `${base}.truth.md`) });
    }
  }
  return out;
}

export async function evaluateCorpus(
  converter: DocumentConverter,
  onFile?: (file: string, ms: number) => void,
): Promise<FidelityReport> {
  const files: FileResult[] = [];
  for (const entry of corpusFiles()) {
    const started = performance.now();
    const bytes = new Uint8Array(readFileSync(entry.path));
    const truth = readFileSync(entry.truthPath, "utf8");
    const result = await converter.convert([{ bytes: bytes.slice(), filename: entry.file }], {
      options: { outputFormats: ["MD"], imageExportMode: "placeholder" },
    });
    const error = result.errors[0];
    // A refused document reads as an empty one: it scores 0, as it would for a user.
    const markdown = error === undefined ? (result.documents[0]?.mdContent ?? "") : "";
    const naive = await naiveConvert(entry.format, bytes);
    files.push({
      ...entry,
      groundwork: scoreDocument(markdown, truth),
      naive: scoreDocument(naive, truth),
      groundworkMarkdown: markdown,
    });
    onFile?.(`${entry.format}/${entry.file}`, performance.now() - started);
  }
  const groups: Array<CorpusFormat | "overall"> = [...CORPUS_FORMATS, "overall"];
  const formats = groups.map((format) => {
    const chosen = format === "overall" ? files : files.filter((f) => f.format === format);
    return {
      format,
      files: chosen.length,
      groundwork: meanScores(chosen.map((f) => f.groundwork)),
      naive: meanScores(chosen.map((f) => f.naive)),
    };
  });
  return { files, formats };
}
