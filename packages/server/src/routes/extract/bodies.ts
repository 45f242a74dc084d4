/** Request bodies of the schema and extraction endpoints (zod, decisions F2). */
import { z } from "zod";

const name = z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters");
const description = z.string().max(10_000, "must be at most 10000 characters").nullable();

export const createSchemaBody = z.object({
  name,
  description: description.optional(),
  // Accepted for compatibility and not stored (spec: "a value sent on create is not stored").
  content: z.unknown().optional(),
});

export const updateSchemaBody = z
  .object({ name: name.optional(), description: description.optional() })
  .refine((body) => body.name !== undefined || body.description !== undefined, {
    message: "name and/or description is required",
  });

export const commitVersionBody = z.object({
  jsonSchema: z.unknown().refine((value) => value !== undefined, { message: "jsonSchema is required" }),
  changeDescription: z.string().max(10_000).nullable().optional(),
  extractionConfig: z
    .unknown()
    .optional()
    .refine((value) => value === undefined, {
      message: "extractionConfig is set by support (groundwork schema-config set), not through the API",
    }),
});

export const validateBody = z.object({
  jsonSchema: z.unknown().refine((value) => value !== undefined, { message: "jsonSchema is required" }),
});

export const LABEL_NAME = /^[a-z0-9-]+$/;

const labelName = z
  .string()
  .min(1)
  .max(64)
  .regex(LABEL_NAME, "label names use lowercase letters, digits and hyphens only");

export const createLabelBody = z.object({ name: labelName, schemaVersionId: z.string().min(1) });
export const updateLabelBody = z.object({ schemaVersionId: z.string().min(1) });

const image = z.object({ data: z.string(), mimeType: z.string() });

export const extractionBody = z.object({
  schemaId: z.string().min(1),
  schemaVersionId: z.string().min(1).optional(),
  inputText: z.string().nullable().optional(),
  inputImages: z.array(image).nullable().optional(),
  /** An uploaded file converted to Markdown as the input text (decision PV12). */
  fileId: z.string().min(1).nullable().optional(),
  model: z.string().trim().min(1),
});
export type ExtractionBody = z.output<typeof extractionBody>;

export const estimateBody = z.object({
  schemaId: z.string().min(1),
  schemaVersionId: z.string().min(1).optional(),
  inputText: z.string(),
});

export const testBody = z.object({
  jsonSchema: z.unknown().optional(),
  sampleText: z.string().min(1),
  model: z.string().trim().min(1),
});

export const EXTRACTION_STATUSES = ["PENDING", "PROCESSING", "COMPLETED", "FAILED"] as const;
