/**
 * A DrawingML chart part (`c:chartSpace`, ppt/charts/chartN.xml or word/charts/chartN.xml) as a
 * table: categories as rows, series as columns, the chart title as the caption. Values come from
 * the caches the part carries (the embedded workbook is not opened) (docs/decisions.md, CP5).
 */
import { normalizeInline, type TableBlock } from "../document-model.js";
import {
  child,
  childElements,
  childrenNamed,
  descendant,
  descendants,
  type XmlElement,
} from "./ooxml-xml.js";

/** `idx` → value of a `c:strCache` / `c:numCache` / `c:multiLvlStrCache` or literal (`c:strLit`, `c:numLit`). */
function points(source: XmlElement | undefined): Map<number, string> {
  const out = new Map<number, string>();
  if (source === undefined) return out;
  const cache =
    descendant(source, "c:strCache") ??
    descendant(source, "c:numCache") ??
    descendant(source, "c:multiLvlStrCache") ??
    descendant(source, "c:strLit") ??
    descendant(source, "c:numLit");
  if (cache === undefined) return out;
  const levels = childrenNamed(cache, "c:lvl");
  const containers = levels.length > 0 ? levels : [cache];
  // Multi-level categories: the innermost level names the row, outer levels prefix it.
  for (const container of containers.reverse()) {
    for (const pt of childrenNamed(container, "c:pt")) {
      const idx = Number(pt.attrs.idx);
      const value = child(pt, "c:v");
      if (!Number.isInteger(idx) || idx < 0 || value === undefined) continue;
      const text = normalizeInline(valueText(value));
      const previous = out.get(idx);
      out.set(idx, previous === undefined ? text : `${previous} ${text}`);
    }
  }
  return out;
}

function valueText(element: XmlElement): string {
  return element.children.map((node) => (typeof node === "string" ? node : valueText(node))).join("");
}

function richText(element: XmlElement | undefined): string {
  if (element === undefined) return "";
  const rich = descendant(element, "c:rich");
  if (rich !== undefined)
    return normalizeInline(
      descendants(rich, "a:p")
        .map((p) => descendants(p, "a:t").map(valueText).join(""))
        .join(" "),
    );
  const cached = points(element);
  if (cached.size > 0) return [...cached.values()].join(" ");
  const literal = descendant(element, "c:v");
  return literal === undefined ? "" : normalizeInline(valueText(literal));
}

const PLOTS =
  /^c:(bar|bar3D|line|line3D|pie|pie3D|doughnut|ofPie|area|area3D|radar|scatter|bubble|stock|surface|surface3D)Chart$/;

/** The chart's data table, or null when the part holds no series. */
export function chartTable(chartSpace: XmlElement): TableBlock | null {
  const chart = child(chartSpace, "c:chart");
  if (chart === undefined) return null;
  const plotArea = child(chart, "c:plotArea");
  if (plotArea === undefined) return null;
  const series: Array<{ name: string; categories: Map<number, string>; values: Map<number, string> }> = [];
  for (const plot of childElements(plotArea)) {
    if (!PLOTS.test(plot.name)) continue;
    for (const ser of childrenNamed(plot, "c:ser")) {
      series.push({
        name: richText(child(ser, "c:tx")),
        categories: points(child(ser, "c:cat") ?? child(ser, "c:xVal")),
        values: points(child(ser, "c:val") ?? child(ser, "c:yVal")),
      });
    }
  }
  if (series.length === 0) return null;
  const indexes = new Set<number>();
  for (const s of series) {
    for (const idx of s.categories.keys()) indexes.add(idx);
    for (const idx of s.values.keys()) indexes.add(idx);
  }
  const ordered = [...indexes].sort((a, b) => a - b);
  const rows: string[][] = [["", ...series.map((s, i) => s.name || `Series ${i + 1}`)]];
  for (const idx of ordered) {
    const category = series.find((s) => s.categories.has(idx))?.categories.get(idx) ?? String(idx + 1);
    rows.push([category, ...series.map((s) => s.values.get(idx) ?? "")]);
  }
  const title = richText(child(chart, "c:title"));
  return { type: "table", rows, header: true, ...(title === "" ? {} : { caption: title }) };
}
