import { buildPptx } from "@groundwork/testkit";
import JSZip from "jszip";
import { afterAll, describe, expect, it } from "vitest";
import { chartXml } from "../../test/ooxml-parts.js";
import { DocumentConverter } from "../converter.js";

const converter = new DocumentConverter({ workers: 1 });
afterAll(() => converter.close());

async function pptxToMarkdown(bytes: Uint8Array): Promise<{ md: string; text: string; html: string }> {
  const result = await converter.convert([{ bytes, filename: "deck.pptx" }], {
    options: { outputFormats: ["MD", "TEXT", "HTML"] },
  });
  expect(result.errors).toEqual([]);
  const document = result.documents[0];
  return {
    md: document?.mdContent ?? "",
    text: document?.textContent ?? "",
    html: document?.htmlContent ?? "",
  };
}

describe("PPTX text fidelity", () => {
  it("a soft line break (<a:br> with run properties, as PowerPoint writes it) separates words", async () => {
    const { md, text } = await pptxToMarkdown(
      await buildPptx([{ title: "Plan", brokenLines: ["first line", "second line"] }]),
    );
    expect(md).toContain("first line second line");
    expect(text).toContain("first line second line");
  });

  it("the title placeholder is the slide's only heading", async () => {
    const { md, text, html } = await pptxToMarkdown(
      await buildPptx([{ title: "Roadmap", bullets: ["a", "b"] }]),
    );
    expect(md).toBe("## Roadmap\n\n- a\n- b\n");
    expect(text.match(/Roadmap/g)).toHaveLength(1);
    expect(html.match(/Roadmap/g)).toHaveLength(1);
    expect(html).toContain('<h2 class="slide" data-index="1">Roadmap</h2>');
  });

  it("a centred title (ctrTitle) is the heading too", async () => {
    const { md } = await pptxToMarkdown(await buildPptx([{ title: "Welcome", titleType: "ctrTitle" }]));
    expect(md).toBe("## Welcome\n");
  });

  it("a slide without a title is headed by its number", async () => {
    const { md } = await pptxToMarkdown(await buildPptx([{ title: "One" }, { bullets: ["x", "y"] }]));
    expect(md).toBe("## One\n\n## Slide 2\n\n- x\n- y\n");
  });
});

/** Adds a chart frame (after the slide's other shapes) and its chart part to slide 1 of a deck. */
async function withChart(deck: Uint8Array, chart: string): Promise<Uint8Array> {
  const zip = await JSZip.loadAsync(deck);
  const slide = (await zip.file("ppt/slides/slide1.xml")?.async("string")) ?? "";
  const frame = `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="7" name="Chart 7"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr><p:xfrm/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart"><c:chart xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" r:id="rId5"/></a:graphicData></a:graphic></p:graphicFrame>`;
  zip.file("ppt/slides/slide1.xml", slide.replace("</p:spTree>", `${frame}</p:spTree>`));
  zip.file(
    "ppt/slides/_rels/slide1.xml.rels",
    `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId5" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/chart" Target="../charts/chart1.xml"/></Relationships>`,
  );
  zip.file("ppt/charts/chart1.xml", chart);
  return zip.generateAsync({ type: "uint8array" });
}

describe("PPTX charts", () => {
  it("a chart is a table in reading order: categories as rows, series as columns, title as caption", async () => {
    const deck = await withChart(
      await buildPptx([{ title: "Sales", bullets: ["Up in Q2", "Flat in Q3"] }, { title: "Next" }]),
      chartXml(
        "Units sold",
        ["Q1", "Q2", "Q3"],
        [
          { name: "North", values: [10, 12.5, 9] },
          { name: "South", values: [7, 8, 8] },
        ],
      ),
    );
    const { md, html } = await pptxToMarkdown(deck);
    expect(md).toBe(
      [
        "## Sales",
        "",
        "- Up in Q2",
        "- Flat in Q3",
        "",
        "|  | North | South |",
        "| --- | --- | --- |",
        "| Q1 | 10 | 7 |",
        "| Q2 | 12.5 | 8 |",
        "| Q3 | 9 | 8 |",
        "",
        "*Units sold*",
        "",
        "## Next",
        "",
      ].join("\n"),
    );
    expect(html).toContain("<caption>Units sold</caption>");
  });

  it("a merged table cell (gridSpan + hMerge) repeats its text", async () => {
    const zip = await JSZip.loadAsync(
      await buildPptx([
        {
          title: "T",
          table: [
            ["a", "b"],
            ["c", "d"],
          ],
        },
      ]),
    );
    const slide = (await zip.file("ppt/slides/slide1.xml")?.async("string")) ?? "";
    zip.file(
      "ppt/slides/slide1.xml",
      slide
        .replace(/<a:tc>(<a:txBody><a:bodyPr\/><a:p><a:r><a:t>a<\/a:t>)/, '<a:tc gridSpan="2">$1')
        .replace(/<a:tc>(<a:txBody><a:bodyPr\/><a:p><a:r><a:t>b<\/a:t>)/, '<a:tc hMerge="1">$1'),
    );
    const { md } = await pptxToMarkdown(await zip.generateAsync({ type: "uint8array" }));
    expect(md).toContain("| a | a |\n| --- | --- |\n| c | d |");
  });
});
