import { describe, expect, it } from "vitest";
import { isDocumentError } from "../document-error.js";
import { childElements, parseXml } from "./ooxml-xml.js";

describe("OOXML parts through the XML parser", () => {
  it("names elements and attributes by the conventional prefix, for Strict namespaces and unusual prefixes too", () => {
    const root = parseXml(
      '<x:document xmlns:x="http://purl.oclc.org/ooxml/wordprocessingml/main"><x:body><x:p x:rsid="1"><x:r><x:t>a &amp; b</x:t></x:r></x:p></x:body></x:document>',
      "word/document.xml",
    );
    expect(root.name).toBe("w:document");
    const p = childElements(childElements(root)[0] as never)[0];
    expect(p).toMatchObject({ name: "w:p", attrs: { "w:rsid": "1" } });
    expect(JSON.stringify(p)).toContain('"a & b"');
  });

  it("applies a default namespace to element names, not to unprefixed attributes", () => {
    const root = parseXml(
      '<document xmlns="http://schemas.openxmlformats.org/wordprocessingml/2006/main" id="7"/>',
      "word/document.xml",
    );
    expect(root).toMatchObject({ name: "w:document", attrs: { id: "7" } });
  });

  it("malformed XML and undefined entities are a corrupt document naming the part", () => {
    for (const xml of ["<a><b></a>", "<a>&nope;</a>", '<!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>', ""]) {
      try {
        parseXml(xml, "ppt/slides/slide1.xml");
        expect.unreachable(xml);
      } catch (error) {
        expect(isDocumentError(error) && error.code).toBe("corrupt_document");
        expect((error as Error).message).toContain("ppt/slides/slide1.xml");
      }
    }
  });
});
