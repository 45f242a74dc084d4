/** Conversion tasks and their inputs: the rows and their records. */

import { int, intOrNull, json } from "./columns.js";
import { bytes } from "./files.js";

export type ConversionTaskStatus = "pending" | "processing" | "success" | "failure";

export interface ConversionTask {
  id: string;
  organizationId: string;
  status: ConversionTaskStatus;
  numDocs: number;
  numProcessed: number;
  numSucceeded: number | null;
  numFailed: number | null;
  request: unknown;
  result: unknown;
  error: string | null;
  jobId: string | null;
  createdAt: number;
  updatedAt: number;
  startedAt: number | null;
  finishedAt: number | null;
}

export type ConversionTaskInput =
  | { kind: "bytes"; filename: string | null; mimeType: string | null; content: Uint8Array }
  | { kind: "http"; url: string; headers: Record<string, string> | null };

export interface FinishTask {
  status: "success" | "failure";
  result: unknown;
  numSucceeded: number;
  numFailed: number;
  error?: string | null;
}

export interface ConversionTaskRow {
  id: string;
  organization_id: string;
  status: ConversionTaskStatus;
  num_docs: number;
  num_processed: number;
  num_succeeded: number | null;
  num_failed: number | null;
  request: string;
  result: string | null;
  error: string | null;
  job_id: string | null;
  created_at: number | string;
  updated_at: number | string;
  started_at: number | string | null;
  finished_at: number | string | null;
}

export interface ConversionTaskInputRow {
  kind: "bytes" | "http";
  filename: string | null;
  mime_type: string | null;
  url: string | null;
  headers: string | null;
  content: Uint8Array | null;
}

export function toConversionTask(row: ConversionTaskRow): ConversionTask {
  return {
    id: row.id,
    organizationId: row.organization_id,
    status: row.status,
    numDocs: row.num_docs,
    numProcessed: row.num_processed,
    numSucceeded: row.num_succeeded,
    numFailed: row.num_failed,
    request: json<unknown>(row.request),
    result: row.result === null ? null : json<unknown>(row.result),
    error: row.error,
    jobId: row.job_id,
    createdAt: int(row.created_at),
    updatedAt: int(row.updated_at),
    startedAt: intOrNull(row.started_at),
    finishedAt: intOrNull(row.finished_at),
  };
}

export function toConversionTaskInput(row: ConversionTaskInputRow): ConversionTaskInput {
  return row.kind === "bytes"
    ? {
        kind: "bytes",
        filename: row.filename,
        mimeType: row.mime_type,
        content: new Uint8Array(row.content ?? new Uint8Array(0)),
      }
    : {
        kind: "http",
        url: row.url ?? "",
        headers: row.headers === null ? null : json<Record<string, string>>(row.headers),
      };
}

/** The input's columns after task id and position: kind, filename, mime_type, url, headers, content. */
export function conversionTaskInputColumns(
  input: ConversionTaskInput,
): [string, string | null, string | null, string | null, string | null, Buffer | null] {
  return input.kind === "bytes"
    ? ["bytes", input.filename, input.mimeType, null, null, Buffer.from(bytes(input.content))]
    : ["http", null, null, input.url, input.headers === null ? null : JSON.stringify(input.headers), null];
}
