/**
 * One OOXML part (document.xml, slide, chart, core properties …) read by a real XML parser
 * (saxes, well-formedness checked) into a small element tree the format readers walk. Names carry the
 * conventional prefix of their namespace whatever prefix the file used (`w:p`, `a:t`, `m:f`),
 * and ISO/IEC 29500 Strict namespaces map to the same prefixes as Transitional ones, so a reader
 * matches one spelling (docs/decisions.md, CP3).
 */
import { SaxesParser } from "saxes";
import { DocumentError } from "../document-error.js";

export interface XmlElement {
  /** `prefix:local` with the conventional prefix of the namespace, or the file's own prefix. */
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
}
export type XmlNode = XmlElement | string;

const TRANSITIONAL = "http://schemas.openxmlformats.org/";
const STRICT = "http://purl.oclc.org/ooxml/";

/** Namespace URI (after the Transitional or Strict stem) → the prefix readers use. */
const OOXML_PREFIXES: Record<string, string> = {
  "wordprocessingml/2006/main": "w",
  "officeDocument/2006/math": "m",
  "officeDocument/2006/relationships": "r",
  "drawingml/2006/main": "a",
  "drawingml/2006/wordprocessingDrawing": "wp",
  "drawingml/2006/picture": "pic",
  "drawingml/2006/chart": "c",
  "presentationml/2006/main": "p",
  "markup-compatibility/2006": "mc",
  "package/2006/relationships": "rel",
  "package/2006/metadata/core-properties": "cp",
};

const STRICT_PREFIXES = new Map(
  Object.entries(OOXML_PREFIXES).map(([stem, prefix]) => [stem.replace("/2006/", "/"), prefix]),
);

const OTHER_PREFIXES: Record<string, string> = {
  "http://schemas.microsoft.com/office/word/2010/wordprocessingShape": "wps",
  "http://schemas.microsoft.com/office/word/2010/wordprocessingGroup": "wpg",
  "urn:schemas-microsoft-com:vml": "v",
  "http://purl.org/dc/elements/1.1/": "dc",
  "http://purl.org/dc/terms/": "dcterms",
};

const prefixCache = new Map<string, string | null>();

function prefixOf(uri: string): string | null {
  let prefix = prefixCache.get(uri);
  if (prefix !== undefined) return prefix;
  const stem = uri.startsWith(TRANSITIONAL)
    ? uri.slice(TRANSITIONAL.length)
    : uri.startsWith(STRICT)
      ? uri.slice(STRICT.length)
      : null;
  // Strict namespaces drop the year: `…/ooxml/wordprocessingml/main` for `…/wordprocessingml/2006/main`.
  prefix =
    (stem === null ? undefined : (OOXML_PREFIXES[stem] ?? STRICT_PREFIXES.get(stem))) ??
    OTHER_PREFIXES[uri] ??
    null;
  prefixCache.set(uri, prefix);
  return prefix;
}

/**
 * Parses one XML part; malformed XML is a `corrupt_document` naming the part. saxes runs without
 * its namespace resolution (a third of the parse time on slide-sized parts): a declaration
 * `xmlns:x="<known namespace>"` renames prefix `x` to the conventional one for the whole part,
 * which only costs anything when a writer chose unusual prefixes.
 */
export function parseXml(xml: string, part: string): XmlElement {
  const parser = new SaxesParser({ position: false });
  const root: XmlElement = { name: "#document", attrs: {}, children: [] };
  const stack: XmlElement[] = [root];
  let top = root;
  let renames: Map<string, string> | null = null;
  const rename = (name: string, element = false): string => {
    if (renames === null) return name;
    const colon = name.indexOf(":");
    if (colon < 0) {
      // A default namespace applies to element names only, never to unprefixed attributes.
      const prefix = element ? renames.get("") : undefined;
      return prefix === undefined ? name : `${prefix}:${name}`;
    }
    const prefix = renames.get(name.slice(0, colon));
    return prefix === undefined ? name : `${prefix}${name.slice(colon)}`;
  };
  parser.on("opentag", (tag) => {
    const attrs = tag.attributes as Record<string, string>;
    for (const key in attrs) {
      if (key !== "xmlns" && !key.startsWith("xmlns:")) continue;
      const canonical = prefixOf(attrs[key] as string);
      const declared = key.slice(6);
      if (canonical !== null && canonical !== declared) {
        renames ??= new Map();
        renames.set(declared, canonical);
      }
    }
    let own = attrs;
    if (renames !== null) {
      own = {};
      for (const key in attrs) own[rename(key)] = attrs[key] as string;
    }
    const element: XmlElement = { name: rename(tag.name, true), attrs: own, children: [] };
    top.children.push(element);
    if (!tag.isSelfClosing) {
      stack.push(element);
      top = element;
    }
  });
  parser.on("closetag", (tag) => {
    if (tag.isSelfClosing) return;
    stack.pop();
    top = stack[stack.length - 1] ?? root;
  });
  parser.on("text", (text) => {
    if (stack.length > 1) top.children.push(text);
  });
  parser.on("cdata", (text) => {
    if (stack.length > 1) top.children.push(text);
  });
  try {
    parser.write(xml).close();
  } catch (error) {
    throw new DocumentError(
      "corrupt_document",
      `${part} is not well-formed XML: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const element = root.children.find((child): child is XmlElement => typeof child !== "string");
  if (element === undefined) throw new DocumentError("corrupt_document", `${part} has no root element`);
  return element;
}

export function childElements(element: XmlElement): XmlElement[] {
  return element.children.filter((child): child is XmlElement => typeof child !== "string");
}

export function child(element: XmlElement, name: string): XmlElement | undefined {
  for (const node of element.children) if (typeof node !== "string" && node.name === name) return node;
  return undefined;
}

export function childrenNamed(element: XmlElement, name: string): XmlElement[] {
  return element.children.filter(
    (node): node is XmlElement => typeof node !== "string" && node.name === name,
  );
}

/** The first descendant (depth first, document order) with that name. */
export function descendant(element: XmlElement, name: string): XmlElement | undefined {
  for (const node of element.children) {
    if (typeof node === "string") continue;
    if (node.name === name) return node;
    const found = descendant(node, name);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Every descendant with that name, in document order (not looking inside a match). */
export function descendants(element: XmlElement, name: string, out: XmlElement[] = []): XmlElement[] {
  for (const node of element.children) {
    if (typeof node === "string") continue;
    if (node.name === name) out.push(node);
    else descendants(node, name, out);
  }
  return out;
}

/** All character data below the element, concatenated. */
export function textContent(element: XmlElement): string {
  let text = "";
  for (const node of element.children) text += typeof node === "string" ? node : textContent(node);
  return text;
}

/** `w:val` style attribute of a child element (`<w:pStyle w:val="Heading1"/>`). */
export function childValue(
  element: XmlElement | undefined,
  name: string,
  attr = "w:val",
): string | undefined {
  if (element === undefined) return undefined;
  return child(element, name)?.attrs[attr];
}

/** Relationship id → target of a `.rels` part. */
export function relationshipsOf(
  xml: string | null,
  part: string,
): Map<string, { target: string; type: string; external: boolean }> {
  const map = new Map<string, { target: string; type: string; external: boolean }>();
  if (xml === null) return map;
  for (const rel of childElements(parseXml(xml, part))) {
    const id = rel.attrs.Id;
    const target = rel.attrs.Target;
    if (id === undefined || target === undefined) continue;
    map.set(id, { target, type: rel.attrs.Type ?? "", external: rel.attrs.TargetMode === "External" });
  }
  return map;
}

/** A part path relative to the part that refers to it (`../media/a.png` from `word/document.xml`). */
export function resolvePartPath(base: string, target: string): string {
  if (target.startsWith("/")) return target.slice(1);
  const parts = base.split("/").slice(0, -1);
  for (const part of target.split("/")) {
    if (part === "..") parts.pop();
    else if (part !== "." && part !== "") parts.push(part);
  }
  return parts.join("/");
}

/** The `.rels` part that belongs to a part. */
export function relsPathOf(part: string): string {
  const slash = part.lastIndexOf("/");
  return `${part.slice(0, slash + 1)}_rels/${part.slice(slash + 1)}.rels`;
}
