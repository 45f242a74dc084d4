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

/** CommonMark cases the hand reader of CP8 read wrongly; markdown-it reads them by the spec (CP9). */
describe("Markdown reader follows CommonMark", () => {
  const blocks = (source: string) => markdownToBlocks(source).blocks;

  it("reads setext headings, and a `---` under a list item is a rule, not a heading", () => {
    expect(blocks("Title line\nspans two\n===\n\nSub\n---\n")).toEqual([
      { type: "heading", level: 1, text: "Title line spans two" },
      { type: "heading", level: 2, text: "Sub" },
    ]);
    expect(blocks("- item\n---\n")).toEqual([
      { type: "list", ordered: false, items: [{ text: "item", depth: 0 }] },
    ]);
  });

  it("joins lazy continuation lines to their paragraph, in a quote and in a list item", () => {
    expect(blocks("> quoted start\nlazy end\n")).toEqual([
      { type: "paragraph", text: "quoted start lazy end" },
    ]);
    expect(blocks("- first item\nlazy line\n- second\n")).toEqual([
      {
        type: "list",
        ordered: false,
        items: [
          { text: "first item lazy line", depth: 0 },
          { text: "second", depth: 0 },
        ],
      },
    ]);
  });

  it("nests lists by their content column, including ordered inside bullets", () => {
    expect(blocks("1. one\n   - a\n     - deep\n   - b\n2. two\n")).toEqual([
      {
        type: "list",
        ordered: true,
        items: [
          { text: "one", depth: 0 },
          { text: "a", depth: 1 },
          { text: "deep", depth: 2 },
          { text: "b", depth: 1 },
          { text: "two", depth: 0 },
        ],
      },
    ]);
    // One space of indent does not nest: "b" is a sibling item.
    expect(blocks("- a\n - b\n")).toEqual([
      {
        type: "list",
        ordered: false,
        items: [
          { text: "a", depth: 0 },
          { text: "b", depth: 0 },
        ],
      },
    ]);
  });

  it("keeps escaped pipes inside table cells and reads tables without outer pipes", () => {
    expect(blocks("a | b\n--- | ---\n`x \\| y` | p \\| q\n")).toEqual([
      {
        type: "table",
        header: true,
        rows: [
          ["a", "b"],
          ["x | y", "p | q"],
        ],
        markdownRows: [
          ["a", "b"],
          ["`x | y`", "p \\| q"],
        ],
      },
    ]);
  });

  it("decodes entity and numeric character references, but not inside code", () => {
    expect(blocks("caf&eacute; &amp; cr&#232;me &#x2014; &copy; `&amp;`\n")).toEqual([
      { type: "paragraph", text: "café & crème — © &amp;", markdown: "café & crème — © `&amp;`" },
    ]);
  });

  it("reads indented code, fences with info strings, and a paragraph that only looks like a heading", () => {
    expect(blocks("    let x = 1;\n\n~~~ python extra\nprint(1)\n~~~\n\n#5 is not a heading\n")).toEqual([
      { type: "code", text: "let x = 1;" },
      { type: "code", text: "print(1)", language: "python" },
      { type: "paragraph", text: "#5 is not a heading" },
    ]);
  });

  it("reads HTML blocks through the HTML reader and drops comments", () => {
    expect(
      blocks(
        "<!-- page 2 -->\n\n<table><tr><th>K</th><th>V</th></tr><tr><td>a</td><td>1</td></tr></table>\n",
      ),
    ).toEqual([
      {
        type: "table",
        header: true,
        rows: [
          ["K", "V"],
          ["a", "1"],
        ],
      },
    ]);
  });

  it("takes the front matter's title and not its fields as text; a task marker is not an item's words", () => {
    const read = markdownToBlocks('---\ntitle: "Plan"\nowner: ops\n---\n- [x] done\n- [ ] open\n');
    expect(read.title).toBe("Plan");
    expect(read.blocks).toEqual([
      {
        type: "list",
        ordered: false,
        items: [
          { text: "done", depth: 0 },
          { text: "open", depth: 0 },
        ],
      },
    ]);
  });

  it("keeps a list going around a fenced block inside an item", () => {
    expect(blocks("1. build\n\n   ```sh\n   make\n   ```\n2. ship\n")).toEqual([
      { type: "list", ordered: true, items: [{ text: "build", depth: 0 }] },
      { type: "code", text: "make", language: "sh" },
      { type: "list", ordered: true, items: [{ text: "ship", depth: 0 }] },
    ]);
  });
});
