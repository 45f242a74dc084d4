/**
 * grounding: the share of an extraction output's checkable leaf values that the extraction's
 * grounding report found in the source document (decision EX2). A leaf is grounded when its
 * basis is `exact_match` or `normalized_match` (and `partial_match` unless `countPartial` is
 * false), not grounded when `not_found`; `unverifiable`, `default_absent` and
 * `system_assigned` leaves cannot be checked against the source and count in neither. Cases
 * without a grounding report (an output that is not an extraction's) and reports without a
 * checkable leaf are skipped.
 */
import type { GroundingBasis, ScoringReport } from "@groundwork/scoring";
import { z } from "zod";
import { scored, skipped } from "../outcome.js";
import { passThreshold } from "../params.js";
import { defineEvaluator } from "./definition.js";

/** The grounding report an extraction carries (`resultMetadata.scoring`); null when scoring was off. */
export type ExtractionGrounding = Pick<ScoringReport, "fields" | "items"> | null;

const UNCHECKABLE: ReadonlySet<GroundingBasis> = new Set([
  "unverifiable",
  "default_absent",
  "system_assigned",
]);

/** Every leaf's grounding basis: the root fields and each array item's fields. */
function leafBases(report: NonNullable<ExtractionGrounding>): GroundingBasis[] {
  const bases = Object.values(report.fields).map((entry) => entry.grounding.basis);
  for (const item of Object.values(report.items)) {
    for (const entry of Object.values(item.fields)) bases.push(entry.grounding.basis);
  }
  return bases;
}

export const grounding = defineEvaluator({
  type: "grounding",
  description:
    "Share of an extraction output's checkable leaf values found in the source document, per the extraction's grounding report (extraction variants of experiments).",
  needsExpectedOutput: false,
  booleanLike: false,
  params: z.object({
    countPartial: z.boolean().default(true).describe("count partial matches as grounded"),
    passThreshold: passThreshold(0.5),
  }),
  run(params, testCase) {
    const report = testCase.grounding;
    if (report === undefined || report === null)
      return skipped("no grounding report (not an extraction output)");
    const bases = leafBases(report).filter((basis) => !UNCHECKABLE.has(basis));
    if (bases.length === 0) return skipped("no leaf value that can be checked against the source");
    const grounded = bases.filter(
      (basis) =>
        basis === "exact_match" ||
        basis === "normalized_match" ||
        (params.countPartial && basis === "partial_match"),
    ).length;
    return scored(
      grounded / bases.length,
      params.passThreshold,
      `${grounded} of ${bases.length} checkable values grounded in the source`,
    );
  },
});
