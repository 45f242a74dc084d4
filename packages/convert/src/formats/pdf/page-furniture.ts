/**
 * Running headers, footers and page numbers ("page furniture") are not document content: a line
 * that sits among the two topmost or two bottommost lines of its page, at the same height, with the
 * same text up to its page number, on at least 3 pages and half of the pages, is dropped before blocks
 * are built (docs/decisions.md, CF11). Otherwise a header would repeat on every page, break the
 * reading order between pages, and could be taken for a heading.
 */

interface FurnitureLine {
  text: string;
  y: number;
  page: number;
  table?: unknown;
}

/** Lines this many from a page's top or bottom edge are candidates. */
const EDGE_LINES = 2;

/** A page number at a short line's start or end: `3`, `Page 3 of 12`, `Report — 3/12`, `- 3 -`. */
const PAGE_NUMBER = /^[-–\s]*\d{1,4}\b|\b\d{1,4}(\s*(\/|of|de|von|sur)\s*\d{1,4})?[-–\s]*$/giu;

/**
 * The line's text, its page number replaced (`Page 3 of 12` and `Page 4 of 12` are one furniture
 * line); other numbers count, so body lines that differ only in a number are not taken for furniture.
 */
function furnitureKey(line: FurnitureLine, side: "top" | "bottom"): string {
  const lower = line.text.toLowerCase().replace(/\s+/g, " ").trim();
  const text = lower.length <= 60 ? lower.replace(PAGE_NUMBER, "#") : lower;
  // Heights within 6 pt are the same position (a header set at one baseline on every page).
  return `${side}|${Math.round(line.y / 6)}|${text}`;
}

export function withoutPageFurniture<L extends FurnitureLine>(lines: L[]): L[] {
  const byPage = new Map<number, L[]>();
  for (const line of lines) {
    if (line.table !== undefined || line.text.length > 120) continue;
    const page = byPage.get(line.page);
    if (page === undefined) byPage.set(line.page, [line]);
    else page.push(line);
  }
  if (byPage.size < 3) return lines;
  const pagesOf = new Map<string, Set<number>>();
  const candidates = new Map<L, string>();
  for (const [page, pageLines] of byPage) {
    // PDF user space: a larger y is higher on the page.
    const sorted = [...pageLines].sort((a, b) => b.y - a.y);
    const top = sorted.slice(0, EDGE_LINES);
    const bottom = sorted.slice(-EDGE_LINES);
    for (const [side, edge] of [
      ["top", top],
      ["bottom", bottom],
    ] as const)
      for (const line of edge) {
        const key = furnitureKey(line, side);
        candidates.set(line, key);
        const pages = pagesOf.get(key);
        if (pages === undefined) pagesOf.set(key, new Set([page]));
        else pages.add(page);
      }
  }
  const needed = Math.max(3, Math.ceil(byPage.size / 2));
  const furniture = new Set<L>();
  for (const [line, key] of candidates) if ((pagesOf.get(key)?.size ?? 0) >= needed) furniture.add(line);
  return furniture.size === 0 ? lines : lines.filter((line) => !furniture.has(line));
}
