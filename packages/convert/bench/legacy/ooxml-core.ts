/** The reader as it was before issue #23 (hand tokenizer / regular expressions / mammoth): the benchmark baseline. */
import type JSZip from "jszip";
import type { MetadataValue } from "../../src/document-model.js";
import { decodeEntities } from "./html.js";

/** Title, author and dates from an OOXML package's docProps/core.xml. */
export async function readCoreProperties(zip: JSZip): Promise<Record<string, MetadataValue>> {
  const file = zip.file("docProps/core.xml");
  if (file === null) return {};
  const xml = await file.async("string");
  const pick = (tag: string) => {
    const m = new RegExp(`<${tag}(?:\\s[^>]*)?>([\\s\\S]*?)</${tag}>`).exec(xml);
    return m?.[1] === undefined ? undefined : decodeEntities(m[1]).trim();
  };
  const out: Record<string, MetadataValue> = {};
  const entries: Array<[string, string | undefined]> = [
    ["title", pick("dc:title")],
    ["subject", pick("dc:subject")],
    ["author", pick("dc:creator")],
    ["keywords", pick("cp:keywords")],
    ["description", pick("dc:description")],
    ["lastModifiedBy", pick("cp:lastModifiedBy")],
    ["created", pick("dcterms:created")],
    ["modified", pick("dcterms:modified")],
  ];
  for (const [key, value] of entries) if (value !== undefined && value !== "") out[key] = value;
  return out;
}
