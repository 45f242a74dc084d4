/** Input rules of an extraction request (spec document 2, "Extraction request" and "Limits"). */
import { invalidRequest } from "@groundwork/core";
import type { InputImage } from "./prompts.js";

export const MAX_INPUT_IMAGES = 10;
export const ALLOWED_IMAGE_TYPES: readonly string[] = ["image/png", "image/jpeg", "image/gif", "image/webp"];

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** Throws a 400 naming the field when the input breaks a rule; returns the images as given. */
export function checkExtractionInput(input: {
  inputText?: string | null | undefined;
  inputImages?: ReadonlyArray<{ data?: unknown; mimeType?: unknown }> | null | undefined;
}): InputImage[] {
  const images = input.inputImages ?? [];
  const hasText = typeof input.inputText === "string" && input.inputText.trim() !== "";
  if (!hasText && images.length === 0) {
    throw invalidRequest("One of inputText or inputImages is required (they may be combined)", {
      param: "inputText",
    });
  }
  if (images.length > MAX_INPUT_IMAGES) {
    throw invalidRequest(`inputImages: at most ${MAX_INPUT_IMAGES} images per extraction`, {
      param: "inputImages",
    });
  }
  return images.map((image, index) => {
    const param = `inputImages[${index}]`;
    if (typeof image.mimeType !== "string" || !ALLOWED_IMAGE_TYPES.includes(image.mimeType)) {
      throw invalidRequest(`${param}.mimeType: must be one of ${ALLOWED_IMAGE_TYPES.join(", ")}`, {
        param: `${param}.mimeType`,
      });
    }
    const data = typeof image.data === "string" ? image.data.replace(/\s+/g, "") : "";
    if (data === "" || data.length % 4 === 1 || !BASE64.test(data)) {
      throw invalidRequest(`${param}.data: must be a non-empty base64 string`, { param: `${param}.data` });
    }
    return { data, mimeType: image.mimeType };
  });
}
