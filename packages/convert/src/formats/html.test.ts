import { describe, expect, it } from "vitest";
import { htmlToBlocks } from "./html.js";

describe("HTML reader (htmlparser2)", () => {
  it("decodes every kind of character reference: rare named ones, legacy ones without ';', numeric", () => {
    const { blocks } = htmlToBlocks(
      "<p>&CounterClockwiseContourIntegral; &Uarrocir; &frac34; &lambda;&Lambda; &copy 2024 &#x1F600; &#8364; &notin;</p>",
    );
    expect(blocks).toEqual([{ type: "paragraph", text: "∳ ⥉ ¾ λΛ © 2024 😀 € ∉" }]);
  });

  it("closes implied end tags (<p> and <li> without their closing tags) and skips script, style and svg text", () => {
    const { blocks, title } = htmlToBlocks(
      "<html><head><title>T &amp; C</title><style>p{}</style></head><body><p>one<p>two<ul><li>a<li>b</ul><script>var x = '<p>no</p>';</script><svg><text>chart</text></svg></body></html>",
    );
    expect(title).toBe("T & C");
    expect(blocks).toEqual([
      { type: "paragraph", text: "one" },
      { type: "paragraph", text: "two" },
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

  it("decodes entities in attributes (alt text)", () => {
    expect(htmlToBlocks('<img alt="Caf&eacute; &amp; more">').blocks).toEqual([
      { type: "picture", alt: "Café & more" },
    ]);
  });
});
