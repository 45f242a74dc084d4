/**
 * CAD and part files. DXF through dxf-parser (text entities, layers, block
 * names); GEO (TRUMPF laser-cutting part file, a documented text format) read
 * natively; STEP header entities and product names; DWG header metadata only.
 * Geometry is never drawn: each document says what was and was not read.
 */

import { DocumentError } from "../document-error.js";
import type { Block, MetadataValue } from "../document-model.js";
import { compactMetadata, documentOf, type ParsedDocument } from "./parse-context.js";
import { decodeText } from "./plain-text.js";

// ---- DXF ----

function cleanMtext(text: string): string {
  return text
    .replace(/\\P/g, "\n")
    .replace(/\\[A-Za-z][^;\\]*;/g, "")
    .replace(/\\[LlOoKk]/g, "")
    .replace(/[{}]/g, "")
    .replace(/%%[cC]/g, "Ø")
    .replace(/%%[dD]/g, "°")
    .replace(/%%[pP]/g, "±")
    .trim();
}

interface DxfEntityLike {
  type: string;
  layer?: string;
  text?: string;
  name?: string;
  tag?: string;
  value?: string;
}

export async function parseDxf(bytes: Uint8Array): Promise<ParsedDocument> {
  const { default: DxfParser } = await import("dxf-parser");
  const text = decodeText(bytes);
  let dxf: {
    header?: Record<string, unknown>;
    entities?: DxfEntityLike[];
    blocks?: Record<string, { name?: string; entities?: DxfEntityLike[] }>;
    tables?: { layer?: { layers?: Record<string, { name: string }> } };
  } | null;
  try {
    dxf = new DxfParser().parseSync(text) as typeof dxf;
  } catch (error) {
    throw new DocumentError(
      "corrupt_document",
      `The DXF could not be read: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (dxf === null) throw new DocumentError("corrupt_document", "The DXF could not be read");
  const layers = Object.keys(dxf.tables?.layer?.layers ?? {});
  const blockNames = Object.keys(dxf.blocks ?? {}).filter((name) => !name.startsWith("*"));
  const rows: string[][] = [];
  const collect = (entities: DxfEntityLike[] | undefined, block: string) => {
    for (const entity of entities ?? []) {
      let value: string | undefined;
      if (entity.type === "TEXT" || entity.type === "MTEXT") value = entity.text;
      else if (entity.type === "ATTDEF" || entity.type === "ATTRIB")
        value = entity.text ?? entity.value ?? entity.tag;
      if (value === undefined) continue;
      const cleaned = cleanMtext(value);
      if (cleaned !== "") rows.push([entity.layer ?? "", block, entity.type, cleaned.replace(/\n/g, " ")]);
    }
  };
  collect(dxf.entities, "");
  for (const [name, block] of Object.entries(dxf.blocks ?? {}))
    if (!name.startsWith("*")) collect(block.entities, name);
  const inserted = [
    ...new Set(
      (dxf.entities ?? []).filter((e) => e.type === "INSERT" && e.name).map((e) => e.name as string),
    ),
  ];
  const entityCounts = new Map<string, number>();
  for (const entity of dxf.entities ?? [])
    entityCounts.set(entity.type, (entityCounts.get(entity.type) ?? 0) + 1);
  const version = typeof dxf.header?.$ACADVER === "string" ? dxf.header.$ACADVER : undefined;
  const blocks: Block[] = [
    {
      type: "paragraph",
      text: `DXF drawing${version ? ` (${version})` : ""}: ${(dxf.entities ?? []).length} entities (${[
        ...entityCounts,
      ]
        .map(([type, n]) => `${n} ${type}`)
        .join(", ")}), ${layers.length} layers, ${blockNames.length} block definitions.`,
    },
  ];
  if (layers.length > 0) {
    blocks.push({ type: "heading", level: 2, text: "Layers" });
    blocks.push({ type: "list", ordered: false, items: layers.map((text) => ({ text, depth: 0 })) });
  }
  if (blockNames.length > 0) {
    blocks.push({ type: "heading", level: 2, text: "Blocks" });
    blocks.push({
      type: "list",
      ordered: false,
      items: blockNames.map((text) => ({
        text: inserted.includes(text) ? `${text} (inserted)` : text,
        depth: 0,
      })),
    });
  }
  if (rows.length > 0) {
    blocks.push({ type: "heading", level: 2, text: "Text" });
    blocks.push({ type: "table", header: true, rows: [["Layer", "Block", "Entity", "Text"], ...rows] });
  }
  return documentOf(
    "dxf",
    blocks,
    compactMetadata({
      dxfVersion: version,
      layers,
      blocks: blockNames,
      entities: (dxf.entities ?? []).length,
    }),
    {
      notes: [
        "Geometry (lines, arcs, dimensions) is not rendered; text entities, layers and block names are extracted.",
      ],
    },
  );
}

// ---- GEO (TRUMPF) ----

const GEO_HEADER_FIELDS = [
  "version",
  "revision",
  "date",
  "min",
  "max",
  "area",
  "unit",
  "tolerance",
  "is3D",
  "partCount",
];
const GEO_DETAIL_FIELDS = [
  "name",
  "description",
  "customer",
  "author",
  "orderId",
  "material",
  "sheetThickness",
  "processingRule",
  "processingTable",
  "machineName",
];
const GEO_ELEMENTS: Record<string, string> = {
  LIN: "lines",
  ARC: "arcs",
  CIR: "circles",
  RND: "roundings",
  PNT: "points",
  CLN: "construction lines",
  CCI: "construction circles",
  CHA: "chamfers",
  ARW: "arrows",
  QUA: "quads",
  TXT: "texts",
};

export function parseGeo(bytes: Uint8Array): ParsedDocument {
  const lines = decodeText(bytes).replace(/\r\n?/g, "\n").split("\n");
  if ((lines[0] ?? "").trim() !== "#~1")
    throw new DocumentError("corrupt_document", "Not a GEO file: the #~1 header section is missing");
  const metadata: Record<string, MetadataValue> = {};
  let i = 1;
  for (const field of GEO_HEADER_FIELDS) {
    const value = (lines[i] ?? "").trim();
    if (value.startsWith("#")) break;
    metadata[field] = value;
    i++;
  }
  while (i < lines.length && (lines[i] ?? "").trim() !== "##~~") i++;
  i++;
  if ((lines[i] ?? "").trim() === "#~11") {
    i++;
    for (const field of GEO_DETAIL_FIELDS) {
      const value = (lines[i] ?? "").trim();
      if (value.startsWith("##~~")) break;
      if (value !== "") metadata[field] = value;
      i++;
    }
  }
  const counts = new Map<string, number>();
  const texts: string[] = [];
  const attributes: string[] = [];
  let section = "";
  let parts = 0;
  for (let n = i; n < lines.length; n++) {
    const line = (lines[n] ?? "").trim();
    if (line.startsWith("#~")) {
      section = line.slice(2);
      if (section === "3") parts++;
      continue;
    }
    if (section === "30" && line.includes("@")) attributes.push(line.split("@").filter(Boolean).join(": "));
    if (section === "32" && GEO_ELEMENTS[line] !== undefined) {
      counts.set(line, (counts.get(line) ?? 0) + 1);
      if (line === "TXT") {
        // TXT: colour/stroke, start point, height/ratio/angle, separation/angle, alignment/orientation/count, lines.
        const countLine = (lines[n + 5] ?? "").trim().split(/\s+/);
        const count = Number(countLine[countLine.length - 1]);
        if (Number.isInteger(count) && count > 0 && count < 1000) {
          for (let t = 0; t < count; t++) texts.push((lines[n + 6 + t] ?? "").trim());
        }
      }
    }
  }
  const headerRows = Object.entries(metadata).map(([key, value]) => [key, String(value)]);
  const blocks: Block[] = [];
  if (typeof metadata.name === "string") blocks.push({ type: "heading", level: 1, text: metadata.name });
  blocks.push({ type: "table", header: true, rows: [["Field", "Value"], ...headerRows] });
  blocks.push({
    type: "paragraph",
    text: `Parts: ${parts}. Elements: ${[...counts].map(([type, n]) => `${n} ${GEO_ELEMENTS[type]}`).join(", ") || "none"}.`,
  });
  if (attributes.length > 0) {
    blocks.push({ type: "heading", level: 2, text: "Attributes" });
    blocks.push({ type: "list", ordered: false, items: attributes.map((text) => ({ text, depth: 0 })) });
  }
  if (texts.length > 0) {
    blocks.push({ type: "heading", level: 2, text: "Text" });
    for (const text of texts) if (text !== "") blocks.push({ type: "paragraph", text });
  }
  return documentOf("geo", blocks, metadata, {
    notes: [
      "Part geometry (points, lines, arcs, contours) is counted, not drawn; header fields and text elements are extracted.",
    ],
  });
}

// ---- STEP (ISO 10303-21) ----

function stepString(value: string): string {
  return value
    .replace(/''/g, "'")
    .replace(/\\X2\\((?:[0-9A-F]{4})+)\\X0\\/gi, (_, hex: string) =>
      String.fromCharCode(...(hex.match(/.{4}/g) ?? []).map((h) => Number.parseInt(h, 16))),
    )
    .replace(/\\X\\([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
    .replace(/\\S\\(.)/g, (_, c: string) => String.fromCharCode(c.charCodeAt(0) + 128));
}

function stepStrings(args: string): string[] {
  return [...args.matchAll(/'((?:[^']|'')*)'/g)].map((m) => stepString(m[1] ?? ""));
}

export function parseStep(bytes: Uint8Array): ParsedDocument {
  const text = decodeText(bytes);
  if (!text.startsWith("ISO-10303-21;"))
    throw new DocumentError("corrupt_document", "Not a STEP file: ISO-10303-21 header missing");
  const header = /HEADER;([\s\S]*?)ENDSEC;/.exec(text)?.[1] ?? "";
  const entity = (name: string) => new RegExp(`${name}\\s*\\(([\\s\\S]*?)\\)\\s*;`).exec(header)?.[1];
  // FILE_DESCRIPTION((descriptions…), implementation_level): only the list is description.
  const description = stepStrings(/^\s*\(([\s\S]*?)\)\s*,/.exec(entity("FILE_DESCRIPTION") ?? "")?.[1] ?? "");
  const fileName = stepStrings(entity("FILE_NAME") ?? "");
  const schema = stepStrings(entity("FILE_SCHEMA") ?? "");
  const products = [...text.matchAll(/=\s*PRODUCT\s*\(([^;]*)\)\s*;/g)].map((m) => stepStrings(m[1] ?? ""));
  const entityCount = (text.match(/^\s*#\d+\s*=/gm) ?? []).length;
  const metadata = compactMetadata({
    description: description.filter(Boolean).join("; "),
    name: fileName[0],
    timestamp: fileName[1],
    author: fileName[2],
    organization: fileName[3],
    preprocessor: fileName[4],
    originatingSystem: fileName[5],
    authorization: fileName[6],
    schema,
    entities: entityCount,
  });
  const rows = Object.entries(metadata).map(([key, value]) => [
    key,
    Array.isArray(value) ? value.join(", ") : String(value),
  ]);
  const blocks: Block[] = [
    { type: "heading", level: 1, text: fileName[0] || "STEP model" },
    { type: "table", header: true, rows: [["Header field", "Value"], ...rows] },
  ];
  if (products.length > 0) {
    blocks.push({ type: "heading", level: 2, text: "Products" });
    blocks.push({
      type: "table",
      header: true,
      rows: [["Id", "Name", "Description"], ...products.map((p) => [p[0] ?? "", p[1] ?? "", p[2] ?? ""])],
    });
  }
  return documentOf("step", blocks, metadata, {
    notes: [
      "STEP: only the header section and PRODUCT entities are read; the 3D geometry is not interpreted.",
    ],
  });
}

// ---- DWG ----

const DWG_RELEASES: Record<string, string> = {
  AC1006: "R10",
  AC1009: "R11/R12",
  AC1012: "R13",
  AC1014: "R14",
  AC1015: "AutoCAD 2000",
  AC1018: "AutoCAD 2004",
  AC1021: "AutoCAD 2007",
  AC1024: "AutoCAD 2010",
  AC1027: "AutoCAD 2013",
  AC1032: "AutoCAD 2018",
};

export function parseDwg(bytes: Uint8Array): ParsedDocument {
  const version = String.fromCharCode(...bytes.subarray(0, 6));
  if (!/^AC10\d\d$/.test(version))
    throw new DocumentError("corrupt_document", "Not a DWG file: no AC10xx version signature");
  const release = DWG_RELEASES[version] ?? "unknown release";
  const maintenance = bytes[11];
  const codepage = bytes.length > 0x14 ? (bytes[0x13] ?? 0) | ((bytes[0x14] ?? 0) << 8) : undefined;
  const metadata = compactMetadata({
    dwgVersion: version,
    release,
    maintenanceRelease: maintenance,
    codepage,
    bytes: bytes.length,
  });
  const statement =
    "DWG is a proprietary binary format: only the file header (version, release, code page) was read. Drawing content was not extracted; export the drawing as DXF or PDF to convert its text.";
  return documentOf(
    "dwg",
    [
      { type: "heading", level: 1, text: `DWG drawing (${release})` },
      {
        type: "table",
        header: true,
        rows: [["Field", "Value"], ...Object.entries(metadata).map(([k, v]) => [k, String(v)])],
      },
      { type: "paragraph", text: statement },
    ],
    metadata,
    { notes: [statement] },
  );
}
