import type { ExtractionConfig } from "../src/index.js";

/**
 * A deterministic extraction of 1,000 items × 10 fields and an input text of 400,000 characters that
 * contains most of the values verbatim, some only after normalisation, in part, or not at all.
 */
export interface BenchFixture {
  jsonSchema: unknown;
  output: { documentTitle: string; items: Array<Record<string, unknown>> };
  inputText: string;
  extractionConfig: ExtractionConfig;
}

const WORDS = ["steel", "bracket", "hex", "bolt", "washer", "flange", "valve", "gasket", "rotor", "sleeve"];
const TEXT_LENGTH = 400_000;

function pad(n: number, width: number): string {
  return String(n).padStart(width, "0");
}

export function buildBenchFixture(itemCount = 1000): BenchFixture {
  const items: Array<Record<string, unknown>> = [];
  const lines: string[] = ["Bill of materials — Assembly Überlänge Nr. 7"];
  for (let i = 0; i < itemCount; i++) {
    const word = WORDS[i % WORDS.length]!;
    const item = {
      partNumber: `PN-${pad(i, 6)}`,
      fileName: `drawing_${pad(i, 6)}.pdf`,
      description: `${word} ${WORDS[(i * 7) % WORDS.length]} size ${i % 50}`,
      material: i % 3 === 0 ? "stainless steel" : "aluminium alloy",
      supplierName: `Supplier ${pad(i % 97, 3)} GmbH`,
      quantity: (i % 12) + 1,
      unitPrice: Math.round(i * 13.7) / 100,
      revision: `R${i % 9}`,
      drawingRef: i % 10 === 0 ? `missing-ref-${i}` : `DRW-${pad(i, 5)}`,
      inStock: i % 2 === 0,
    };
    items.push(item);
    // Hyphens turned into underscores or spaces give normalized matches; the file name appears only
    // as its stem for every fifth item (a partial match).
    const partInText = i % 4 === 0 ? item.partNumber.replace("-", " ") : item.partNumber;
    const fileInText = i % 5 === 0 ? `drawing ${pad(i, 6)}` : item.fileName;
    lines.push(
      `${i + 1}. ${partInText} | ${fileInText} | ${item.description} | ${item.material} | ${item.supplierName} | ` +
        `qty ${item.quantity} | ${item.unitPrice} EUR | ${item.revision} | ${item.drawingRef.replace("missing", "x")}`,
    );
  }
  // The item lines are spread over the whole text, as in a long document, so a value that is not
  // there (or not verbatim) costs a search through all 400,000 characters.
  const filler =
    "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt. ";
  const fillerPerLine = Math.max(0, Math.floor((TEXT_LENGTH - lines.join("\n").length) / lines.length) - 2);
  const padding = filler.repeat(Math.ceil(fillerPerLine / filler.length) + 1).slice(0, fillerPerLine);
  let inputText = lines.map((line) => `${line}\n${padding}`).join("\n");
  inputText = inputText.padEnd(TEXT_LENGTH, filler).slice(0, TEXT_LENGTH);

  const jsonSchema = {
    type: "object",
    required: ["documentTitle", "items"],
    properties: {
      documentTitle: { type: "string" },
      items: {
        type: "array",
        items: {
          type: "object",
          required: ["partNumber", "quantity"],
          properties: {
            partNumber: { type: "string", pattern: "^PN-\\d{6}$" },
            fileName: { type: "string" },
            description: { type: "string" },
            material: { type: "string" },
            supplierName: { type: "string" },
            quantity: { type: "integer", minimum: 1 },
            unitPrice: { type: "number", minimum: 0 },
            revision: { type: "string" },
            drawingRef: { type: "string" },
            inStock: { type: "boolean" },
          },
        },
      },
    },
  };
  const extractionConfig: ExtractionConfig = {
    validation: { properties: { items: { confidenceThreshold: 0.85 } } },
    confidence: { properties: { items: { threshold: 0.6 } } },
    rules: [
      { id: "part-number", type: "REGEX", field: "/items/*/partNumber", pattern: "PN-\\d{6}+" },
      { id: "quantity", type: "RANGE", field: "/items/*/quantity", min: 1, max: 10 },
      {
        id: "material",
        type: "ENUM",
        field: "/items/*/material",
        values: ["stainless steel", "aluminium alloy"],
      },
    ],
  };
  return {
    jsonSchema,
    output: { documentTitle: "Bill of materials", items },
    inputText,
    extractionConfig,
  };
}
