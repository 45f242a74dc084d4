/**
 * The bodies of the skill endpoints (PLATFORM.md §4.3), shared by the HTTP routes
 * and library callers.
 */
import { z } from "zod";

export const SKILL_LABEL_NAME = /^[a-z0-9-]+$/;

/** `POST /v1/skills/import` as JSON: a file map of UTF-8 texts. */
export const skillImportFilesBody = z.object({
  files: z.record(z.string(), z.string(), { error: "files must be an object of paths to UTF-8 texts" }),
  changeDescription: z.string().max(2000).nullish(),
});

const versionRef = z.union([z.string().min(1), z.number().int().positive().transform(String)]);

export const skillLabelCreateBody = z.object({
  name: z
    .string()
    .min(1)
    .max(64)
    .regex(SKILL_LABEL_NAME, "label names are 1–64 characters of lowercase letters, digits and hyphens"),
  skillVersionId: versionRef,
});

export const skillLabelMoveBody = z.object({ skillVersionId: versionRef });

export type SkillImportFilesBody = z.output<typeof skillImportFilesBody>;
