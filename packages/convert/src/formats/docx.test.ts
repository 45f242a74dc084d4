import { afterAll, describe, expect, it } from "vitest";
import { chartXml, docxOf, para, W_NS } from "../../test/ooxml-parts.js";
import { DocumentConverter } from "../converter.js";

const converter = new DocumentConverter({ workers: 1 });
afterAll(() => converter.close());

async function markdownOf(bytes: Uint8Array): Promise<string> {
  const result = await converter.convert([{ bytes, filename: "doc.docx" }], {
    options: { outputFormats: ["MD"] },
  });
  expect(result.errors).toEqual([]);
  return result.documents[0]?.mdContent ?? "";
}

const cell = (text: string, props = "") =>
  `<w:tc>${props === "" ? "" : `<w:tcPr>${props}</w:tcPr>`}${para(text)}</w:tc>`;
const row = (...cells: string[]) => `<w:tr>${cells.join("")}</w:tr>`;

describe("DOCX tables with merged cells", () => {
  it("repeats a cell spanning columns (gridSpan) and a vertical merge (vMerge) in every slot it covers", async () => {
    const table = `<w:tbl><w:tblGrid><w:gridCol/><w:gridCol/><w:gridCol/></w:tblGrid>${row(
      cell("Region"),
      cell("Sales 2024", '<w:gridSpan w:val="2"/>'),
    )}${row(cell("North", '<w:vMerge w:val="restart"/>'), cell("Q1"), cell("10"))}${row(
      cell("", "<w:vMerge/>"),
      cell("Q2"),
      cell("12"),
    )}${row(cell("South"), cell("Q1"), cell("7"))}</w:tbl>`;
    const md = await markdownOf(await docxOf(table));
    expect(md).toBe(
      [
        "| Region | Sales 2024 | Sales 2024 |",
        "| --- | --- | --- |",
        "| North | Q1 | 10 |",
        "| North | Q2 | 12 |",
        "| South | Q1 | 7 |",
        "",
      ].join("\n"),
    );
  });

  it("keeps the columns of a row that starts late (gridBefore)", async () => {
    const table = `<w:tbl>${row(cell("a"), cell("b"))}<w:tr><w:trPr><w:gridBefore w:val="1"/></w:trPr>${cell("c")}</w:tr></w:tbl>`;
    expect(await markdownOf(await docxOf(table))).toBe("| a | b |\n| --- | --- |\n|  | c |\n");
  });
});

describe("DOCX text boxes", () => {
  const box = (text: string) =>
    `<wps:wsp><wps:txbx><w:txbxContent>${para(text)}</w:txbxContent></wps:txbx></wps:wsp>`;

  it("reads a DrawingML text box once (not its VML fallback too), after the paragraph that anchors it", async () => {
    const anchored = `<w:p><w:r><w:t>Before the box.</w:t></w:r><w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing><wp:anchor><wp:docPr id="1" name="Text Box 1"/><a:graphic><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape">${box(
      "Boxed remark",
    )}</a:graphicData></a:graphic></wp:anchor></w:drawing></mc:Choice><mc:Fallback><w:pict><v:shape><v:textbox><w:txbxContent>${para(
      "Boxed remark",
    )}</w:txbxContent></v:textbox></v:shape></w:pict></mc:Fallback></mc:AlternateContent></w:r></w:p>`;
    const md = await markdownOf(await docxOf(`${anchored}${para("After the box.")}`));
    expect(md).toBe("Before the box.\n\nBoxed remark\n\nAfter the box.\n");
  });

  it("reads a VML text box (v:textbox)", async () => {
    const vml = `<w:p><w:r><w:pict><v:shape><v:textbox><w:txbxContent>${para("Legacy box text")}</w:txbxContent></v:textbox></v:shape></w:pict></w:r></w:p>`;
    expect(await markdownOf(await docxOf(`${para("Intro")}${vml}`))).toBe("Intro\n\nLegacy box text\n");
  });
});

describe("DOCX equations (OMML) as LaTeX", () => {
  const r = (text: string) => `<m:r><m:t>${text}</m:t></m:r>`;

  it("an inline fraction with a superscript stays in its sentence as $…$", async () => {
    const math = `<m:oMath><m:f><m:num>${r("a")}</m:num><m:den><m:sSup><m:e>${r("b")}</m:e><m:sup>${r("2")}</m:sup></m:sSup></m:den></m:f></m:oMath>`;
    const md = await markdownOf(
      await docxOf(
        `<w:p><w:r><w:t xml:space="preserve">Ratio </w:t></w:r>${math}<w:r><w:t xml:space="preserve"> here.</w:t></w:r></w:p>`,
      ),
    );
    expect(md).toBe("Ratio $\\frac{a}{b^2}$ here.\n");
  });

  it("a display equation (oMathPara) is its own $$…$$ paragraph: n-ary sum, radical, Greek, delimiters", async () => {
    const sum = `<m:nary><m:naryPr><m:chr m:val="∑"/></m:naryPr><m:sub>${r("i=1")}</m:sub><m:sup>${r("n")}</m:sup><m:e><m:sSub><m:e>${r("x")}</m:e><m:sub>${r("i")}</m:sub></m:sSub></m:e></m:nary>`;
    const root = `<m:rad><m:radPr><m:degHide m:val="1"/></m:radPr><m:deg/><m:e>${r("α+β")}</m:e></m:rad>`;
    const paren = `<m:d><m:dPr><m:begChr m:val="["/><m:endChr m:val="]"/></m:dPr><m:e>${r("y")}</m:e><m:e>${r("z")}</m:e></m:d>`;
    const body = `${para("Before")}<w:p><m:oMathPara><m:oMath>${sum}${r("=")}${root}${paren}</m:oMath></m:oMathPara></w:p>${para("After")}`;
    expect(await markdownOf(await docxOf(body))).toBe(
      "Before\n\n$$\\sum_{i=1}^n x_i=\\sqrt{\\alpha+\\beta}[y|z]$$\n\nAfter\n",
    );
  });

  it("matrices, integrals with limits, functions and normal text", async () => {
    const matrix = `<m:m><m:mr><m:e>${r("1")}</m:e><m:e>${r("0")}</m:e></m:mr><m:mr><m:e>${r("0")}</m:e><m:e>${r("1")}</m:e></m:mr></m:m>`;
    const integral = `<m:nary><m:sub>${r("0")}</m:sub><m:sup>${r("∞")}</m:sup><m:e>${r("f")}</m:e></m:nary>`;
    const func = `<m:func><m:fName>${r("sin")}</m:fName><m:e>${r("θ")}</m:e></m:func>`;
    const text = `<m:r><m:rPr><m:nor/></m:rPr><m:t>if x</m:t></m:r>`;
    const md = await markdownOf(
      await docxOf(
        `<w:p><m:oMath>${matrix}</m:oMath><m:oMath>${integral}</m:oMath><m:oMath>${func}${text}</m:oMath></w:p>`,
      ),
    );
    expect(md).toBe(
      "$\\begin{matrix}1 & 0 \\\\ 0 & 1\\end{matrix}$ $\\int_0^\\infty f$ $\\sin \\theta\\text{if x}$\n",
    );
  });
});

describe("DOCX charts", () => {
  it("a chart becomes a table: categories as rows, series as columns, the title as caption", async () => {
    const body = `<w:p><w:r><w:drawing><wp:inline><wp:docPr id="1" name="Chart 1"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart"><c:chart r:id="rId9"/></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`;
    const md = await markdownOf(
      await docxOf(body, {
        rels: [{ id: "rId9", type: "chart", target: "charts/chart1.xml" }],
        parts: {
          "word/charts/chart1.xml": chartXml(
            "Revenue",
            ["2023", "2024"],
            [
              { name: "EU", values: [1, 2] },
              { name: "US", values: [3, 4] },
            ],
          ),
        },
      }),
    );
    expect(md).toBe("|  | EU | US |\n| --- | --- | --- |\n| 2023 | 1 | 3 |\n| 2024 | 2 | 4 |\n\n*Revenue*\n");
  });
});

describe("DOCX structure", () => {
  it("headings by outline level, footnotes at the end, deleted text dropped", async () => {
    const body = `<w:p><w:pPr><w:outlineLvl w:val="1"/></w:pPr><w:r><w:t>Scope</w:t></w:r></w:p><w:p><w:r><w:t xml:space="preserve">Kept </w:t></w:r><w:del><w:r><w:delText>gone</w:delText></w:r></w:del><w:ins><w:r><w:t>added</w:t></w:r></w:ins></w:p>`;
    const footnotes = `<?xml version="1.0"?><w:footnotes xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote><w:footnote w:id="1">${para("A note.")}</w:footnote></w:footnotes>`;
    const md = await markdownOf(
      await docxOf(body, {
        rels: [{ id: "rId3", type: "footnotes", target: "footnotes.xml" }],
        parts: { "word/footnotes.xml": footnotes },
      }),
    );
    expect(md).toBe("## Scope\n\nKept added\n\n1. A note.\n");
  });

  it("a malformed document part is a corrupt document, not a crash", async () => {
    const result = await converter.convert([{ bytes: await docxOf("<w:p><w:r>"), filename: "bad.docx" }]);
    expect(result.errors[0]?.message ?? "").toMatch(/not well-formed|could not be read|corrupt/i);
  });
});

describe("DOCX headings from custom styles (real-world templates)", () => {
  const styles = `<?xml version="1.0" encoding="UTF-8"?><w:styles ${W_NS}>
<w:style w:type="paragraph" w:styleId="berschrift1"><w:name w:val="heading 1"/></w:style>
<w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="Heading 2"/><w:basedOn w:val="berschrift1"/></w:style>
<w:style w:type="paragraph" w:styleId="ReportSection"><w:name w:val="Report Section"/><w:basedOn w:val="Heading2"/></w:style>
<w:style w:type="paragraph" w:styleId="Chapter"><w:name w:val="Chapter"/><w:pPr><w:outlineLvl w:val="0"/></w:pPr></w:style>
<w:style w:type="paragraph" w:styleId="Lead"><w:name w:val="Lead"/><w:basedOn w:val="Chapter"/></w:style>
</w:styles>`;
  const styled = (style: string, text: string, direct = "") =>
    `<w:p><w:pPr><w:pStyle w:val="${style}"/>${direct}</w:pPr><w:r><w:t>${text}</w:t></w:r></w:p>`;

  it("follows basedOn to Heading N under a localised id, reads a style's outline level, and lets a direct level 9 make body text", async () => {
    const body = [
      styled("berschrift1", "Einleitung"),
      styled("ReportSection", "Findings"),
      styled("Lead", "Part One"),
      styled("Heading2", "Not a heading", '<w:outlineLvl w:val="9"/>'),
      para("Plain body text."),
    ].join("");
    const md = await markdownOf(
      await docxOf(body, {
        parts: { "word/styles.xml": styles },
        rels: [{ id: "rId9", type: "styles", target: "styles.xml" }],
      }),
    );
    expect(md).toBe("# Einleitung\n\n## Findings\n\n# Part One\n\nNot a heading\n\nPlain body text.\n");
  });
});
