/** Skill packages for tests: file maps, zips built with jszip, and hostile archives. */
import JSZip from "jszip";

export function skillMd(name: string, description = `The ${name} skill`, extra = ""): string {
  return `---\nname: ${name}\ndescription: ${description}\n${extra}---\n# ${name}\n\nUse it well.\n`;
}

export type ZipEntries = Record<string, string | Uint8Array | { content: string; unixPermissions: number }>;

/** A deflated zip of the entries (a `{content, unixPermissions}` entry is written with that Unix mode). */
export async function zipOf(entries: ZipEntries): Promise<Uint8Array> {
  const zip = new JSZip();
  for (const [path, value] of Object.entries(entries)) {
    if (typeof value === "object" && !(value instanceof Uint8Array)) {
      zip.file(path, value.content, { unixPermissions: value.unixPermissions });
    } else zip.file(path, value);
  }
  return zip.generateAsync({ type: "uint8array", compression: "DEFLATE", platform: "UNIX" });
}

/** Rewrites every declared uncompressed size (local headers and central directory) of 4 KiB or more to `declared`. */
export function lieAboutSizes(bytes: Uint8Array, declared: number): Uint8Array {
  const out = bytes.slice();
  const view = new DataView(out.buffer);
  for (let i = 0; i + 46 <= out.length; i++) {
    const signature = view.getUint32(i, true);
    if (signature === 0x04034b50 && view.getUint32(i + 22, true) >= 4096)
      view.setUint32(i + 22, declared, true);
    else if (signature === 0x02014b50 && view.getUint32(i + 24, true) >= 4096)
      view.setUint32(i + 24, declared, true);
  }
  return out;
}

/** A zip whose one entry named `name` is stored with exactly that (possibly hostile) name. */
export async function zipWithName(name: string, content = "x"): Promise<Uint8Array> {
  const placeholder = "Q".repeat(Math.max(1, new TextEncoder().encode(name).length));
  const bytes = await zipOf({ "SKILL.md": skillMd("hostile"), [placeholder]: content });
  // Same byte length: patch the name in the local header and the central directory.
  const out = bytes.slice();
  const encodedName = new TextEncoder().encode(name);
  const needle = new TextEncoder().encode(placeholder);
  for (let i = 0; i + needle.length <= out.length; i++) {
    if (needle.every((b, k) => out[i + k] === b)) {
      out.set(encodedName, i);
      i += needle.length - 1;
    }
  }
  return out;
}

export function multipartOf(
  zip: Uint8Array,
  filename = "skill.zip",
  fields: Record<string, string> = {},
): FormData {
  const form = new FormData();
  form.set("file", new File([zip], filename, { type: "application/zip" }));
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  return form;
}
