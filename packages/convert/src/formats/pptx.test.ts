import { buildPptx } from "@groundwork/testkit";
import { afterAll, describe, expect, it } from "vitest";
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
