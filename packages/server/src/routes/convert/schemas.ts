/** Request validation for the conversion endpoints (spec document 1, Conversion). */
import { OUTPUT_FORMATS, ocrEngineOf, PIPELINES, unsupportedOcrEngineMessage } from "@groundwork/convert";
import { z } from "zod";

/** Any value but a name of an engine the converter runs is a 400 that lists the engines. */
const ocrEngineSchema = z.unknown().transform((value, context) => {
  const engine = typeof value === "string" ? ocrEngineOf(value) : null;
  if (engine === null) {
    context.addIssue({ code: "custom", message: unsupportedOcrEngineMessage(value) });
    return z.NEVER;
  }
  return engine;
});

export const pipelineOptionsSchema = z.object({
  outputFormats: z.array(z.enum(OUTPUT_FORMATS)).min(1).optional(),
  imageExportMode: z.enum(["placeholder", "embedded"]).optional(),
  ocrEngine: ocrEngineSchema.optional(),
  ocrLanguages: z.array(z.string().min(1).max(32)).max(10).optional(),
  pdfBackend: z.string().max(64).optional(),
  tableStructure: z.boolean().optional(),
  maxPages: z.number().int().min(1).optional(),
  imagesScale: z.number().gt(0).max(8).optional(),
  pictureClassification: z.boolean().optional(),
});

const BASE64 = /^[A-Za-z0-9+/\s]*={0,2}\s*$/;

export const sourceSchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("http"),
    url: z
      .string()
      .url()
      .refine((value) => /^https?:\/\//i.test(value), { message: "only http and https URLs are supported" }),
    headers: z.record(z.string(), z.string()).optional(),
  }),
  z.object({
    kind: z.literal("base64"),
    content: z
      .string()
      .min(1)
      .transform((value) => value.replace(/^data:[^,]*;base64,/, ""))
      .refine((value) => BASE64.test(value), { message: "content is not valid base64" }),
    filename: z.string().min(1).max(1024).optional(),
    mimeType: z.string().min(1).max(255).optional(),
  }),
]);

export const topOptionsSchema = z.object({
  pipeline: z.enum(PIPELINES).optional(),
  timeout: z.number().gt(0).max(3600).optional(),
  abortOnError: z.boolean().optional(),
  extractMetadata: z.boolean().optional(),
  options: pipelineOptionsSchema.optional(),
});

export const MAX_SOURCES = 100;

export const sourceRequestSchema = z.object({
  sources: z.array(sourceSchema).min(1).max(MAX_SOURCES),
  options: topOptionsSchema.optional(),
});

export type SourceRequest = z.output<typeof sourceRequestSchema>;
export type TopOptions = z.output<typeof topOptionsSchema>;
