/**
 * Pages and PDF boxes for grounding spans (issue #27, decision PV13). When an extraction's input text
 * is a conversion's Markdown, the conversion says where each block lies in that text
 * (`renderPlacedMarkdown`); a span then gets the page of the block it starts in and, for a PDF, the
 * union of the boxes of the blocks it covers on that page.
 */
import type { SourcePlacement } from "@groundwork/store-sqlite";

type Box = [number, number, number, number];

interface Span {
  start: number;
  end: number;
  page?: number;
  bbox?: Box;
}

/** The span with `page` and, when its blocks have boxes, `bbox`; unchanged outside every block. */
export function placeSpan(span: Span, placements: readonly SourcePlacement[]): Span {
  // Placements are in reading order without overlaps: the first one ending after the span's start
  // holds it (or, when the start sits in the blank between two blocks, is the next block).
  let low = 0;
  let high = placements.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (placements[middle]!.end <= span.start) low = middle + 1;
    else high = middle;
  }
  const first = placements[low];
  if (first === undefined || first.start >= span.end) return span;
  let bbox: Box | undefined;
  for (let at = low; at < placements.length && placements[at]!.start < span.end; at++) {
    const placement = placements[at]!;
    if (placement.page !== first.page || placement.bbox === undefined) continue;
    const box = placement.bbox;
    bbox =
      bbox === undefined
        ? [...box]
        : [
            Math.min(bbox[0], box[0]),
            Math.min(bbox[1], box[1]),
            Math.max(bbox[2], box[2]),
            Math.max(bbox[3], box[3]),
          ];
  }
  return bbox === undefined ? { ...span, page: first.page } : { ...span, page: first.page, bbox };
}

/**
 * Gives every span in a stored result's scoring (`resultMetadata.scoring`, root fields and item
 * fields) its page and box. Nothing changes without placements.
 */
export function placeResultSpans(
  stored: Record<string, unknown>,
  placements: readonly SourcePlacement[] | null,
) {
  if (placements === null || placements.length === 0) return;
  const metadata = stored.resultMetadata as { scoring?: unknown } | undefined;
  visit(metadata?.scoring, placements);
}

function visit(node: unknown, placements: readonly SourcePlacement[]): void {
  if (node === null || typeof node !== "object") return;
  if (Array.isArray(node)) {
    for (const element of node) visit(element, placements);
    return;
  }
  const record = node as Record<string, unknown>;
  const grounding = record.grounding as { spans?: unknown } | undefined;
  if (grounding !== null && typeof grounding === "object" && Array.isArray(grounding.spans)) {
    grounding.spans = (grounding.spans as Span[]).map((span) => placeSpan(span, placements));
  }
  for (const [key, value] of Object.entries(record)) if (key !== "grounding") visit(value, placements);
}
