import { afterAll, describe, expect, it } from "vitest";
import { DocumentConverter } from "../converter.js";
import { markdownToBlocks } from "./markdown.js";

const converter = new DocumentConverter({ workers: 1 });
afterAll(() => converter.close());

async function markdownToMarkdown(source: string): Promise<{ md: string; text: string }> {
  const result = await converter.convert(
    [{ bytes: new TextEncoder().encode(source), filename: "notes.md" }],
    { options: { outputFormats: ["MD", "TEXT"] } },
  );
  expect(result.errors).toEqual([]);
  return { md: result.documents[0]?.mdContent ?? "", text: result.documents[0]?.textContent ?? "" };
}

describe("Markdown to Markdown keeps inline formatting", () => {
  const source = [
    "# Release **4.2** notes",
    "",
    "The *new* importer reads **bold** claims, _underscored_ words, `inline code` and",
    "[the changelog](https://example.com/changelog?v=4.2).",
    "",
    "- Run `pnpm build` **first**",
    "  then see [docs](https://example.com/docs)",
    "- plain item",
    "",
    "| Option | Meaning |",
    "| --- | --- |",
    "| `timeout` | seconds, **per** document |",
    "| a \\| b | [link](https://example.com/t) |",
    "",
  ].join("\n");

  it("in headings, paragraphs, list items (with continuation lines) and table cells", async () => {
    const { md } = await markdownToMarkdown(source);
    expect(md).toContain("# Release **4.2** notes");
    expect(md).toContain(
      "The *new* importer reads **bold** claims, _underscored_ words, `inline code` and [the changelog](https://example.com/changelog?v=4.2).",
    );
    expect(md).toContain(
      "- Run `pnpm build` **first** then see [docs](https://example.com/docs)\n- plain item",
    );
    expect(md).toContain("| `timeout` | seconds, **per** document |");
    expect(md).toContain("| a \\| b | [link](https://example.com/t) |");
  });

  it("while TEXT and the model's text stay plain words", async () => {
    const { text } = await markdownToMarkdown(source);
    expect(text).toContain(
      "The new importer reads bold claims, underscored words, inline code and the changelog.",
    );
    expect(text).not.toContain("**");
    const [heading, paragraph] = markdownToBlocks(source).blocks;
    expect(heading).toEqual({
      type: "heading",
      level: 1,
      text: "Release 4.2 notes",
      markdown: "Release **4.2** notes",
    });
    expect(paragraph).toMatchObject({ type: "paragraph", text: expect.not.stringContaining("*") });
  });

  it("is stable: converting its own output again gives the same Markdown", async () => {
    const once = (await markdownToMarkdown(source)).md;
    const twice = (await markdownToMarkdown(once)).md;
    expect(twice).toBe(once);
  });

  it("keeps a paragraph that opens with emphasis a paragraph, not a list", async () => {
    const { md } = await markdownToMarkdown("*Draft* only, **do not** share.\n");
    expect(md).toBe("*Draft* only, **do not** share.\n");
    expect(markdownToBlocks(md).blocks).toEqual([
      { type: "paragraph", text: "Draft only, do not share.", markdown: "*Draft* only, **do not** share." },
    ]);
  });

  it("leaves unformatted blocks without a markdown field", () => {
    expect(markdownToBlocks("Just words, 1. and \\* stars.\n").blocks).toEqual([
      { type: "paragraph", text: "Just words, 1. and * stars." },
    ]);
  });
});
