/**
 * An uploaded file as an extraction's input (`fileId`, decision PV12): converted with the `fast`
 * pipeline to the document model and rendered as Markdown — the text the model reads and spans point
 * into — together with where each block lies in it, so spans get pages and PDF boxes.
 */
import { renderPlacedMarkdown } from "@groundwork/convert";
import { invalidRequest } from "@groundwork/core";
import type { ConversionService } from "../conversion/conversion-service.js";
import type { FileService } from "../files/file-service.js";
import type { ConvertedInput } from "./extraction-service.js";

export function fileInputConverter(files: FileService, conversion: ConversionService) {
  return async (organizationId: string, fileId: string, signal?: AbortSignal): Promise<ConvertedInput> => {
    const { file, bytes } = await files.content(organizationId, fileId);
    const result = await conversion.convert(
      [{ kind: "bytes", filename: file.filename, mimeType: file.mime, content: bytes }],
      { options: { outputFormats: ["JSON"] } },
      signal,
      organizationId,
    );
    // A container (zip, mail) converts to several documents; the first one is the input.
    const model = result.documents[0]?.jsonContent;
    if (model === undefined) {
      const reason = result.errors[0];
      throw invalidRequest(
        `The file ${fileId} could not be converted${reason === undefined ? "" : `: ${reason.message}`}`,
        { param: "fileId" },
      );
    }
    const { markdown, placements } = renderPlacedMarkdown(model);
    return { markdown, placements };
  };
}
