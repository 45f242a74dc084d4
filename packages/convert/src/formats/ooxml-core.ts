import type { MetadataValue } from "../document-model.js";
import type { OoxmlPackage } from "./ooxml-package.js";
import { child, parseXml, textContent } from "./ooxml-xml.js";

/** Title, author and dates from an OOXML package's docProps/core.xml (a malformed part gives none). */
export async function readCoreProperties(pkg: OoxmlPackage): Promise<Record<string, MetadataValue>> {
  const xml = await pkg.text("docProps/core.xml");
  if (xml === null) return {};
  let root: ReturnType<typeof parseXml>;
  try {
    root = parseXml(xml, "docProps/core.xml");
  } catch {
    return {};
  }
  const pick = (tag: string) => {
    const element = child(root, tag);
    return element === undefined ? undefined : textContent(element).trim();
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

/** Image media types by file extension, for pictures embedded in Office packages. */
export const IMAGE_MIME_TYPES: Readonly<Record<string, string>> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  bmp: "image/bmp",
  tif: "image/tiff",
  tiff: "image/tiff",
  svg: "image/svg+xml",
  webp: "image/webp",
  emf: "image/emf",
  wmf: "image/wmf",
};
