// Scores a structured output against its input text with the pure scoring engine:
// schema validation, grounding, a business rule and composite confidence. No server, no model.
// From the repository root: node --import tsx examples/score/index.ts
// #region readme
import { scoreResult } from "@groundwork/scoring";

const { schemaValidation, rules, scoring } = scoreResult({
  jsonSchema: {
    type: "object",
    properties: { invoiceNumber: { type: "string" }, total: { type: "number" } },
  },
  output: { invoiceNumber: "INV-2024-001", total: 120.5 },
  inputText: "Invoice INV-2024-001 from Acme GmbH, total 120.50 EUR.",
  extractionConfig: { rules: [{ id: "total-positive", type: "RANGE", field: "/total", min: 0 }] },
});
console.log(schemaValidation.violationCount, rules.passCount, scoring?.fields.invoiceNumber?.grounding);
// #endregion readme
