// Scores extraction outputs against the outputs a reviewer expected, with built-in evaluators: no model.
// From the repository root, after a build: node --import tsx examples/evaluators/index.ts
// #region readme
import { createGroundwork } from "@groundwork/platform";
import { openStore } from "@groundwork/store-sqlite";

const groundwork = createGroundwork({ store: openStore({ file: ":memory:" }) });
const org = await groundwork.principal("acme");
// What two extractions returned (output text) and what was expected of them.
const expected = { invoiceNumber: "INV-7", vendor: "Acme GmbH", total: 120.5 };
const cases = [
  { output: JSON.stringify(expected), expectedOutput: expected },
  { output: '{"invoiceNumber": "INV-7", "vendor": "ACME GmbH", "total": 125}', expectedOutput: expected },
];
const fields = await groundwork.evaluators.evaluate(
  org,
  { type: "field_accuracy", params: { caseSensitive: false, numericTolerance: 0.5 } },
  cases,
);
const exact = await groundwork.evaluators.evaluate(org, { type: "exact_match" }, cases);
cases.forEach((_, i) => {
  const [f, e] = [fields.results[i], exact.results[i]];
  if (f && "score" in f && e && "score" in e) {
    console.log(i, `field_accuracy ${f.score.toFixed(2)} (${f.comment})`, `exact_match ${e.score}`);
  }
});
// #endregion readme
