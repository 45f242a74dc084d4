import { z } from "zod";

export const page = {
  page: z.number().int().min(0).optional().describe("0-based page number (default 0)"),
  size: z.number().int().min(1).max(100).optional().describe("page size, 1-100 (default 20)"),
};

/** `T` with optional-and-undefined keys turned into truly optional keys. */
export type Defined<T> = { [K in keyof T as undefined extends T[K] ? never : K]: T[K] } & {
  [K in keyof T as undefined extends T[K] ? K : never]?: Exclude<T[K], undefined>;
};

/** Drops undefined values so optional parameters are not sent at all. */
export function defined<T extends Record<string, unknown>>(value: T): Defined<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Defined<T>;
}

export const fileInput = {
  filename: z.string().min(1).describe("file name, including its extension (used for format detection)"),
  contentBase64: z.string().min(1).describe("the file's bytes, base64-encoded"),
  mimeType: z.string().optional().describe("media type of the file, e.g. application/pdf"),
};

export function toBlob(file: { contentBase64: string; mimeType?: string | undefined }): Blob {
  return new Blob([Buffer.from(file.contentBase64, "base64")], {
    type: file.mimeType ?? "application/octet-stream",
  });
}
