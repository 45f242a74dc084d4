/** The vlm pipeline: page images go to a vision model through the ChatModel port. */
import type { ChatModel } from "@groundwork/core";
import { DocumentError } from "./document-error.js";

export interface VisionModel {
  chatModel: ChatModel;
  /** Model name passed in the chat request (e.g. a built-in vision model). */
  model: string;
}

export const VLM_PROMPT =
  "Convert this document page to Markdown. Keep the reading order, headings (#), lists, and tables (GitHub pipe tables). " +
  "Transcribe the text exactly; do not summarise or add commentary. Answer with the Markdown only.";

export async function transcribePage(
  vision: VisionModel,
  image: Uint8Array,
  mimeType: string,
  signal: AbortSignal,
): Promise<string> {
  let completion: Awaited<ReturnType<ChatModel["complete"]>>;
  try {
    completion = await vision.chatModel.complete(
      {
        model: vision.model,
        temperature: 0,
        messages: [
          {
            role: "user",
            content: [
              { type: "text", text: VLM_PROMPT },
              {
                type: "image_url",
                image_url: { url: `data:${mimeType};base64,${Buffer.from(image).toString("base64")}` },
              },
            ],
          },
        ],
      },
      { signal },
    );
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw new DocumentError(
      "vlm_failed",
      `The vision model failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const content = completion.choices[0]?.message.content;
  if (typeof content !== "string") throw new DocumentError("vlm_failed", "The vision model returned no text");
  // Models like to wrap the answer in a ```markdown fence.
  return content.replace(/^\s*```(?:markdown|md)?\s*\n([\s\S]*?)\n```\s*$/i, "$1");
}
