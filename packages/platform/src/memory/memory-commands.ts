/**
 * The write commands of a member's memory (PLATFORM.md §3.3), one object with a
 * `command`: the HTTP body of `POST /v1/me/memory/file` and the library input alike.
 */
import { z } from "zod";

const ifMatch = z.string().optional();

export const memoryWriteCommand = z.discriminatedUnion(
  "command",
  [
    z.object({
      command: z.literal("create"),
      path: z.string(),
      content: z.string(),
      overwrite: z.boolean().default(false),
      ifMatch,
    }),
    z.object({
      command: z.literal("str_replace"),
      path: z.string(),
      oldStr: z.string().min(1),
      newStr: z.string().default(""),
      ifMatch,
    }),
    z.object({
      command: z.literal("insert"),
      path: z.string(),
      insertLine: z.number().int(),
      insertText: z.string(),
      ifMatch,
    }),
    z.object({ command: z.literal("rename"), path: z.string(), newPath: z.string(), ifMatch }),
  ],
  { error: "command must be one of create, str_replace, insert, rename" },
);

export type MemoryWriteCommand = z.output<typeof memoryWriteCommand>;
export type MemoryWriteInput = z.input<typeof memoryWriteCommand>;
