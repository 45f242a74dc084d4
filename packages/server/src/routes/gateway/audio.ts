/**
 * `POST /v1/audio/transcriptions`: multipart (`file`, `model`, and the provider's
 * optional fields), forwarded to hosted-a / cloud-a providers or the built-in
 * service; the provider's answer comes back as it is (JSON or text).
 */
import { invalidRequest, payloadTooLarge } from "@groundwork/core";
import type { Gateway } from "@groundwork/gateway";
import type { Hono } from "hono";
import { readMultipart } from "../../http/body.js";
import type { AppEnv } from "../../http/env.js";
import { requireRole } from "../../http/guards.js";
import { clientSignal } from "../../http/node-request.js";

/** The vendors' own upload limit for transcriptions. */
export const MAX_AUDIO_BYTES = 25 * 1024 * 1024;

export function registerAudio(app: Hono<AppEnv>, gateway: Gateway): void {
  app.post("/v1/audio/transcriptions", requireRole("member"), async (c) => {
    const form = await readMultipart(c, "the audio as a `file` part with a `model` field", "file");
    const file = form.get("file");
    if (!(file instanceof File))
      throw invalidRequest("file is required (an audio file part)", { param: "file" });
    if (file.size > MAX_AUDIO_BYTES) {
      throw payloadTooLarge(`file is ${file.size} bytes; at most ${MAX_AUDIO_BYTES} are accepted`, {
        param: "file",
        code: "file_too_large",
      });
    }
    const model = form.get("model");
    if (typeof model !== "string" || model === "")
      throw invalidRequest("model is required", { param: "model" });
    const fields: Record<string, string> = {};
    for (const [name, value] of form.entries()) {
      if (name !== "file" && name !== "model" && typeof value === "string") fields[name] = value;
    }
    const result = await gateway.transcribe(
      { model, file, fields },
      { principal: c.var.principal, signal: clientSignal(c) },
    );
    return result.kind === "json" ? c.json(result.body as object) : c.text(result.body);
  });
}
