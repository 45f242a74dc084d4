/**
 * A skill package (PLATFORM.md §4.1) from a file map or a zip, checked whole before
 * anything is stored: `SKILL.md` with its frontmatter, the path rules, the size and
 * count limits. A zip's central directory is read first (names, declared sizes,
 * symlinks) without inflating anything, and the real inflated bytes are counted
 * while inflating, so lying headers do not help. Failures are core errors:
 * `400 invalid_skill` naming the place, `413 payload_too_large` over a limit.
 */
import { createHash } from "node:crypto";
import { invalidRequest, isZipSymlink, payloadTooLarge, readZipDirectory } from "@groundwork/core";
import JSZip from "jszip";
import { parseSkillFrontmatter } from "./skill-frontmatter.js";
import {
  SKILL_FILE_MAX_BYTES,
  SKILL_MAX_FILES,
  SKILL_MD_MAX_BYTES,
  SKILL_PATH_MAX_LENGTH,
  SKILL_TOTAL_MAX_BYTES,
  SKILL_ZIP_MAX_BYTES,
} from "./skill-limits.js";
import { skillPathProblem } from "./skill-paths.js";

export const SKILL_MD = "SKILL.md";

export interface SkillPackageFile {
  path: string;
  size: number;
  /** Lowercase hex SHA-256 of the bytes. */
  sha256: string;
  bytes: Uint8Array;
}

export interface SkillPackage {
  name: string;
  description: string;
  frontmatter: Record<string, unknown>;
  /** The whole `SKILL.md`. */
  skillMd: string;
  /** Sorted by path, `SKILL.md` included. */
  files: SkillPackageFile[];
  totalSize: number;
}

/** macOS archive litter, left out of zips (never part of a skill). */
export const ARCHIVE_LITTER = /(^|\/)(__MACOSX\/|\.DS_Store$)/;

const invalid = (message: string, param: string) => invalidRequest(message, { param, code: "invalid_skill" });

export function sha256Hex(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

function checkPath(path: string, maxLength?: number): void {
  const problem = skillPathProblem(path, maxLength);
  if (problem !== null) throw invalid(`File path "${path.slice(0, 300)}" ${problem}`, `files.${path}`);
}

function checkCounts(count: number): void {
  if (count > SKILL_MAX_FILES) {
    throw payloadTooLarge(
      `A skill holds at most ${SKILL_MAX_FILES} files (SKILL.md included); got ${count}`,
      {
        param: "files",
      },
    );
  }
}

function checkFileSize(path: string, size: number): void {
  const max = path === SKILL_MD ? SKILL_MD_MAX_BYTES : SKILL_FILE_MAX_BYTES;
  if (size > max) {
    throw payloadTooLarge(`${path} is larger than ${max} bytes`, {
      param: path === SKILL_MD ? SKILL_MD : `files.${path}`,
    });
  }
}

function checkTotal(total: number): void {
  if (total > SKILL_TOTAL_MAX_BYTES) {
    throw payloadTooLarge(`A skill's files total at most ${SKILL_TOTAL_MAX_BYTES} bytes uncompressed`, {
      param: "files",
    });
  }
}

/** Validates complete file contents (paths already relative to the package root) into a package. */
export function skillPackageFromEntries(
  entries: ReadonlyArray<{ path: string; bytes: Uint8Array }>,
): SkillPackage {
  checkCounts(entries.length);
  const seen = new Set<string>();
  let total = 0;
  for (const { path, bytes } of entries) {
    checkPath(path);
    if (seen.has(path)) throw invalid(`File path "${path}" appears twice`, `files.${path}`);
    seen.add(path);
    checkFileSize(path, bytes.byteLength);
    total += bytes.byteLength;
  }
  checkTotal(total);
  for (const path of seen) {
    // A file may not also be a directory of another file.
    const parts = path.split("/");
    for (let i = 1; i < parts.length; i++) {
      const dir = parts.slice(0, i).join("/");
      if (seen.has(dir)) throw invalid(`"${dir}" is both a file and a directory`, `files.${dir}`);
    }
  }
  const skillMdEntry = entries.find((entry) => entry.path === SKILL_MD);
  if (skillMdEntry === undefined) throw invalid("SKILL.md is required at the package root", SKILL_MD);
  let skillMd: string;
  try {
    skillMd = new TextDecoder("utf-8", { fatal: true }).decode(skillMdEntry.bytes);
  } catch {
    throw invalid("SKILL.md is not valid UTF-8", SKILL_MD);
  }
  const { name, description, frontmatter } = parseSkillFrontmatter(skillMd);
  const files = entries
    .map(({ path, bytes }) => ({ path, size: bytes.byteLength, sha256: sha256Hex(bytes), bytes }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { name, description, frontmatter, skillMd, files, totalSize: total };
}

/** A package from `{<path>: <UTF-8 text>}` (the JSON import body). */
export function skillPackageFromFiles(files: Record<string, string>): SkillPackage {
  const encoder = new TextEncoder();
  const entries = Object.entries(files);
  checkCounts(entries.length);
  let total = 0;
  const encoded = entries.map(([path, text]) => {
    checkPath(path);
    const bytes = encoder.encode(text);
    checkFileSize(path, bytes.byteLength);
    total += bytes.byteLength;
    checkTotal(total);
    return { path, bytes };
  });
  return skillPackageFromEntries(encoded);
}

/** jszip's internal streaming helper (public in its docs, missing from its typings). */
interface InternalStream {
  on(event: "data", listener: (chunk: Uint8Array) => void): InternalStream;
  on(event: "error", listener: (error: Error) => void): InternalStream;
  on(event: "end", listener: () => void): InternalStream;
  pause(): InternalStream;
  resume(): InternalStream;
}

/** Inflates one entry, failing as soon as more than `cap` bytes came out (plugin packages use it too). */
export function inflateCapped(
  file: JSZip.JSZipObject,
  cap: number,
  tooLarge: () => Error,
  corrupt: (message: string) => Error = (message) => invalid(message, `files.${file.name}`),
): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let total = 0;
    let done = false;
    const stream = (file as unknown as { internalStream(type: "uint8array"): InternalStream }).internalStream(
      "uint8array",
    );
    stream
      .on("data", (chunk: Uint8Array) => {
        if (done) return;
        total += chunk.length;
        if (total > cap) {
          done = true;
          stream.pause();
          reject(tooLarge());
          return;
        }
        chunks.push(chunk);
      })
      .on("error", (error: Error) => {
        if (done) return;
        done = true;
        reject(corrupt(`Entry "${file.name}" is corrupt: ${error.message}`));
      })
      .on("end", () => {
        if (done) return;
        done = true;
        const out = new Uint8Array(total);
        let offset = 0;
        for (const chunk of chunks) {
          out.set(chunk, offset);
          offset += chunk.length;
        }
        resolve(out);
      })
      .resume();
  });
}

/**
 * The file entries of a zip (after its central directory passed the checks): names
 * relative to the package root — one single top-level folder stripped when `rootFile`
 * (skills: `SKILL.md`, plugins: the manifest) is not at the root — and the archive
 * litter left out. Skill and plugin zips share it so both strip the same way.
 */
export function rootedNames(names: string[], rootFile: string): Map<string, string> {
  const kept = names.filter((name) => !ARCHIVE_LITTER.test(name));
  const out = new Map<string, string>();
  const tops = new Set(kept.map((name) => (name.includes("/") ? name.slice(0, name.indexOf("/")) : "")));
  const [top] = tops;
  const strip =
    !kept.includes(rootFile) &&
    tops.size === 1 &&
    top !== undefined &&
    top !== "" &&
    kept.includes(`${top}/${rootFile}`);
  for (const name of kept) out.set(name, strip ? name.slice((top as string).length + 1) : name);
  return out;
}

/** How a package kind reads its zip's files (skills and plugins differ in caps and error params). */
export interface ZipReadRules {
  invalid: (message: string, param: string) => Error;
  /** The param naming a raw zip entry in errors (skills: `files.<name>`). */
  entryParam: (name: string) => string;
  /** A file's cap; null for a file that is kept (with no bytes) but not read. */
  capOf: (path: string) => number | null;
  totalMax: number;
  /** Over `perFile`, or (`overTotal`) over what is left of `totalMax`. */
  tooLarge: (path: string, perFile: number, overTotal: boolean) => Error;
  /** A corrupt entry; defaults to `invalid` at `entryParam`. */
  corrupt?: (message: string, path: string) => Error;
}

/**
 * Inflates the files of a zip whose central directory passed the checks, counting the
 * real inflated bytes against each file's cap and the total (lying size headers do not
 * help). A file the central directory does not list fails; archive litter is skipped.
 */
export async function inflateRootedFiles(
  bytes: Uint8Array,
  rooted: Map<string, string>,
  rules: ZipReadRules,
): Promise<Array<{ path: string; bytes: Uint8Array }>> {
  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(bytes, { createFolders: false });
  } catch (error) {
    throw rules.invalid(
      `The zip archive cannot be read: ${error instanceof Error ? error.message : String(error)}`,
      "file",
    );
  }
  const entries: Array<{ path: string; bytes: Uint8Array }> = [];
  let total = 0;
  for (const file of Object.values(zip.files)) {
    if (file.dir) continue;
    const path = rooted.get(file.name);
    if (path === undefined) {
      if (ARCHIVE_LITTER.test(file.name)) continue;
      throw rules.invalid(
        `"${file.name}" is not listed in the zip's central directory`,
        rules.entryParam(file.name),
      );
    }
    const perFile = rules.capOf(path);
    if (perFile === null) {
      entries.push({ path, bytes: new Uint8Array(0) });
      continue;
    }
    const cap = Math.min(perFile, rules.totalMax - total);
    const content = await inflateCapped(
      file,
      cap,
      () => rules.tooLarge(path, perFile, cap < perFile),
      (message) =>
        rules.corrupt === undefined
          ? rules.invalid(message, rules.entryParam(file.name))
          : rules.corrupt(message, path),
    );
    total += content.byteLength;
    entries.push({ path, bytes: content });
  }
  return entries;
}

/** A package from a zip archive. */
export async function skillPackageFromZip(bytes: Uint8Array): Promise<SkillPackage> {
  if (bytes.byteLength > SKILL_ZIP_MAX_BYTES) {
    throw payloadTooLarge(`A skill zip is at most ${SKILL_ZIP_MAX_BYTES} bytes`, { param: "file" });
  }
  const directory = readZipDirectory(bytes);
  if (directory === null) throw invalid("The file is not a readable zip archive", "file");
  const names = new Set<string>();
  for (const entry of directory) {
    if (isZipSymlink(entry)) throw invalid(`"${entry.name}" is a symbolic link`, `files.${entry.name}`);
    // The hostile shapes first, on the raw name (one top-level folder may still be stripped).
    checkPath(entry.directory ? entry.name.slice(0, -1) : entry.name, 2 * SKILL_PATH_MAX_LENGTH + 1);
    if (names.has(entry.name))
      throw invalid(`"${entry.name}" appears twice in the zip`, `files.${entry.name}`);
    names.add(entry.name);
  }
  const fileEntries = directory.filter((entry) => !entry.directory);
  const rooted = rootedNames(
    fileEntries.map((entry) => entry.name),
    SKILL_MD,
  );
  checkCounts(rooted.size);
  let declared = 0;
  for (const entry of fileEntries) {
    const path = rooted.get(entry.name);
    if (path === undefined) continue;
    checkPath(path);
    checkFileSize(path, entry.uncompressedSize);
    declared += entry.uncompressedSize;
  }
  checkTotal(declared);

  const entries = await inflateRootedFiles(bytes, rooted, {
    invalid,
    entryParam: (name) => `files.${name}`,
    capOf: (path) => (path === SKILL_MD ? SKILL_MD_MAX_BYTES : SKILL_FILE_MAX_BYTES),
    totalMax: SKILL_TOTAL_MAX_BYTES,
    tooLarge: (path, perFile, overTotal) =>
      overTotal
        ? payloadTooLarge(`A skill's files total at most ${SKILL_TOTAL_MAX_BYTES} bytes uncompressed`, {
            param: "files",
          })
        : payloadTooLarge(`${path} inflates past ${perFile} bytes`, {
            param: path === SKILL_MD ? SKILL_MD : `files.${path}`,
          }),
  });
  return skillPackageFromEntries(entries);
}

/** Whether two file lists hold the same paths with the same SHA-256s. */
export function sameSkillFiles(
  a: ReadonlyArray<{ path: string; sha256: string }>,
  b: ReadonlyArray<{ path: string; sha256: string }>,
): boolean {
  if (a.length !== b.length) return false;
  const byPath = new Map(a.map((file) => [file.path, file.sha256]));
  return b.every((file) => byPath.get(file.path) === file.sha256);
}

/**
 * How a stored file is served: Markdown for `.md`, plain text for other valid UTF-8
 * without NUL characters, bytes otherwise (PLATFORM.md §4.3).
 */
export function skillFileContentType(path: string, bytes: Uint8Array): string {
  if (/\.md$/i.test(path)) return "text/markdown; charset=utf-8";
  return skillFileText(bytes) === null ? "application/octet-stream" : "text/plain; charset=utf-8";
}

/** The file as text when it is valid UTF-8 without NUL characters; null for binary files. */
export function skillFileText(bytes: Uint8Array): string | null {
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return text.includes("\u0000") ? null : text;
  } catch {
    return null;
  }
}
