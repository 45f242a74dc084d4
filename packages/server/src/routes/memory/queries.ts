/** The query strings of the memory endpoints; a bad value is a 400 naming its parameter. */
import { z } from "zod";

const lineNumber = z
  .string()
  .regex(/^-?\d{1,9}$/, "must be an integer")
  .transform(Number);
const required = (name: string) => z.string({ error: `${name} is required` });

export const listQuery = z.object({ prefix: z.string().optional() });

export const readQuery = z.object({
  path: required("path"),
  startLine: lineNumber.optional(),
  endLine: lineNumber.optional(),
});

export const deleteQuery = z.object({ path: required("path"), ifMatch: z.string().optional() });
