import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isDocumentError } from "./document-error.js";
import type { DocumentModel } from "./document-model.js";
import { asciidocToBlocks } from "./formats/asciidoc.js";
import { htmlToBlocks } from "./formats/html.js";
import { markdownToBlocks } from "./formats/markdown.js";
import { detectFormat } from "./formats.js";
import { renderHtml } from "./render/html.js";
import { renderMarkdown } from "./render/markdown.js";
import { renderText } from "./render/text.js";
import { ooxmlKindOf } from "./zip-directory.js";

const model = (blocks: DocumentModel["blocks"]): DocumentModel => ({
  schema: "groundwork.document/v1",
  filename: "x",
  format: "txt",
  pipeline: "fast",
  metadata: {},
  notes: [],
  blocks,
});

const markupish = fc.stringMatching(/^[<>/a-z0-9 |#*=.\-_\n"'&;:[\]()!]*$/);

describe("text readers and renderers never throw", () => {
  it("on arbitrary HTML-like, Markdown-like and AsciiDoc-like input", () => {
    fc.assert(
      fc.property(fc.oneof(markupish, fc.string()), (source) => {
        for (const blocks of [
          htmlToBlocks(source).blocks,
          markdownToBlocks(source).blocks,
          asciidocToBlocks(source).blocks,
        ]) {
          renderMarkdown(model(blocks));
          renderText(model(blocks));
          renderHtml(model(blocks));
        }
      }),
      { numRuns: 300 },
    );
  });

  it("HTML output escapes every text it renders", () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const html = renderHtml(model([{ type: "paragraph", text: `<script>${text}` }]));
        expect(html).not.toContain("<script>");
      }),
      { numRuns: 200 },
    );
  });

  it("keeps paragraph text through Markdown rendering", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9 ,.]{0,40}$/), (text) => {
        const blocks = markdownToBlocks(
          renderMarkdown(model([{ type: "paragraph", text: text.trim() }])),
        ).blocks;
        expect(blocks).toEqual([{ type: "paragraph", text: text.trim().replace(/\s+/g, " ") }]);
      }),
      { numRuns: 200 },
    );
  });
});

describe("detection", () => {
  it("answers a format or a DocumentError for any bytes and declaration", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 0, maxLength: 512 }),
        fc.constantFrom("a.pdf", "a.docx", "a.txt", "a", "a.zip", "a.png", "a.msg"),
        fc.option(fc.constantFrom("application/pdf", "text/plain", "image/png", "application/zip"), {
          nil: undefined,
        }),
        (bytes, filename, mimeType) => {
          try {
            detectFormat(bytes, filename, mimeType, ooxmlKindOf);
          } catch (error) {
            expect(isDocumentError(error)).toBe(true);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
