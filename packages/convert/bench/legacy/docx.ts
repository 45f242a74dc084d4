/** The reader as it was before issue #23 (hand tokenizer / regular expressions / mammoth): the benchmark baseline. */
/** DOCX through mammoth's semantic HTML (headings, lists, tables, images), then the HTML reader. */
import { DocumentError } from "../../src/document-error.js";
import { documentOf, type ParsedDocument, type ParseOptions } from "../../src/formats/parse-context.js";
import { htmlToBlocks } from "./html.js";
import { readCoreProperties } from "./ooxml-core.js";

export async function parseDocx(bytes: Uint8Array, options: ParseOptions): Promise<ParsedDocument> {
  const [{ default: mammoth }, { default: JSZip }] = await Promise.all([import("mammoth"), import("jszip")]);
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let html: string;
  try {
    const result = await mammoth.convertToHtml(
      { buffer },
      options.embedImages
        ? {}
        : {
            // Skip base64-encoding pictures nobody will see; keep their alt text.
            convertImage: mammoth.images.imgElement(async () => ({ src: "" })),
          },
    );
    html = result.value;
  } catch (error) {
    throw new DocumentError(
      "corrupt_document",
      `The DOCX could not be read: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const { blocks } = htmlToBlocks(html, { embedImages: options.embedImages });
  const zip = await JSZip.loadAsync(bytes).catch(() => null);
  const metadata = zip === null ? {} : await readCoreProperties(zip);
  return documentOf("docx", blocks, metadata);
}
