/**
 * Where OCR traineddata comes from. Nothing is downloaded: a language is usable when
 * its data is on disk, either in a folder the host names (`tessdataDir`, the usual
 * tessdata layout) or as an installed `@tesseract.js-data/<lang>` package.
 */
import { existsSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { DocumentError } from "./document-error.js";

const LANGUAGE_ALIASES: Record<string, string> = {
  en: "eng",
  english: "eng",
  de: "deu",
  german: "deu",
  fr: "fra",
  french: "fra",
  es: "spa",
  spanish: "spa",
  it: "ita",
  italian: "ita",
  pt: "por",
  nl: "nld",
};

/** tesseract's names: `eng`, `chi_sim`, `deu_latf`…; anything else cannot name a file. */
const LANGUAGE_CODE = /^[a-z][a-z0-9_]{1,31}$/;

/** The data package layout: the integer-quantised "best" model, as accurate as "best" at the size of "fast". */
const PACKAGE_MODEL_DIR = "4.0.0_best_int";

export function normalizeLanguages(requested: readonly string[] | undefined): string[] {
  const codes = (requested === undefined || requested.length === 0 ? ["eng"] : requested).map((code) => {
    const lower = code.trim().toLowerCase();
    return LANGUAGE_ALIASES[lower] ?? lower;
  });
  return [...new Set(codes)];
}

export interface LanguageSearch {
  /** A folder of `<lang>.traineddata` or `<lang>.traineddata.gz` files, searched first. */
  tessdataDir?: string | undefined;
}

/**
 * Package lookups start from this module (the packages installed with @groundwork/convert)
 * and from the working directory (the packages of the application that runs it).
 */
function packageRequires(): NodeJS.Require[] {
  return [createRequire(import.meta.url), createRequire(join(process.cwd(), "package.json"))];
}

function fileIn(dir: string, code: string): string | null {
  for (const name of [`${code}.traineddata`, `${code}.traineddata.gz`]) {
    const file = join(dir, name);
    if (existsSync(file)) return file;
  }
  return null;
}

/** The traineddata file of one language (plain or gzipped), or null when it is not installed. */
export function locateLanguage(code: string, search: LanguageSearch = {}): string | null {
  if (!LANGUAGE_CODE.test(code)) return null;
  if (search.tessdataDir !== undefined) {
    const file = fileIn(search.tessdataDir, code);
    if (file !== null) return file;
  }
  for (const require of packageRequires()) {
    try {
      const dir = dirname(require.resolve(`@tesseract.js-data/${code}/package.json`));
      const file = fileIn(join(dir, PACKAGE_MODEL_DIR), code);
      if (file !== null) return file;
    } catch {
      // not installed where this lookup looks
    }
  }
  return null;
}

/** Every language whose data can be found, for error messages. */
export function availableLanguages(search: LanguageSearch = {}): string[] {
  const found = new Set<string>();
  const collect = (dir: string, pattern: RegExp) => {
    if (!existsSync(dir)) return;
    for (const name of readdirSync(dir)) {
      const code = pattern.exec(name)?.[1];
      if (code !== undefined && LANGUAGE_CODE.test(code)) found.add(code);
    }
  };
  if (search.tessdataDir !== undefined) collect(search.tessdataDir, /^(.+)\.traineddata(?:\.gz)?$/);
  for (const require of packageRequires()) {
    for (const modules of require.resolve.paths("@tesseract.js-data/eng") ?? []) {
      collect(join(modules, "@tesseract.js-data"), /^(.+)$/);
    }
  }
  return [...found].filter((code) => locateLanguage(code, search) !== null).sort();
}

/** The traineddata file of each language, or a per-document error that says how to install the rest. */
export function locateLanguages(codes: readonly string[], search: LanguageSearch = {}): Map<string, string> {
  const files = new Map<string, string>();
  const missing: string[] = [];
  for (const code of codes) {
    const file = locateLanguage(code, search);
    if (file === null) missing.push(code);
    else files.set(code, file);
  }
  if (missing.length > 0) {
    const where =
      search.tessdataDir === undefined
        ? "or give the OCR engine a tessdataDir folder holding"
        : `or put into ${search.tessdataDir}`;
    const install = missing
      .filter((code) => LANGUAGE_CODE.test(code))
      .map((code) => `@tesseract.js-data/${code}`);
    throw new DocumentError(
      "unsupported_language",
      `OCR language(s) ${missing.join(", ")} not installed; available: ${availableLanguages(search).join(", ") || "none"}. ` +
        (install.length > 0
          ? `Install the traineddata offline with \`pnpm add ${install.join(" ")}\` (next to @groundwork/convert), ${where} ${missing.map((code) => `${code}.traineddata`).join(", ")}`
          : "Language names are tesseract codes such as eng, deu, fra or chi_sim"),
    );
  }
  return files;
}
