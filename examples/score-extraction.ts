// Scores a structured output against its input text with the pure scoring engine:
// schema validation, grounding, a business rule and composite confidence. No server, no model.
// From the repository root: node --import tsx examples/score-extraction.ts
import { scoreResult } from "@groundwork/scoring";

const inputText = "Invoice INV-2024-001 from Acme GmbH. Drawing bracket_v2.dxf, 4 parts, total 120.50 EUR.";

const result = scoreResult({
  jsonSchema: {
    type: "object",
    required: ["invoiceNumber", "total"],
    properties: {
      invoiceNumber: { type: "string" },
      vendor: { type: "string" },
      total: { type: "number" },
      parts: {
        type: "array",
        items: {
          type: "object",
          properties: { fileName: { type: "string" }, quantity: { type: "integer" } },
        },
      },
    },
  },
  output: {
    invoiceNumber: "INV-2024-001",
    vendor: "Globex Industries", // not in the text: flagged as not found
    total: 120.5,
    parts: [{ fileName: "bracket_v2.dxf", quantity: 4 }],
  },
  inputText,
  extractionConfig: {
    rules: [{ id: "total-positive", type: "RANGE", field: "/total", min: 0, severity: "ERROR" }],
  },
});

console.log("schema violations:", result.schemaValidation.violationCount);
console.log("rules:", result.rules.passCount, "passed,", result.rules.failCount, "failed");
for (const [field, entry] of Object.entries(result.scoring?.fields ?? {})) {
  console.log(
    `${field}: grounding ${entry.grounding.basis} ${entry.grounding.score}, confidence ${entry.confidence?.score} (${entry.confidence?.basis}), provenance [${entry.provenance?.join(", ")}]`,
  );
}
