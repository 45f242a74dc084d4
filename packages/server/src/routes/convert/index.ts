/**
 * The conversion endpoints (spec document 1, "Conversion"): synchronous and
 * asynchronous conversion of JSON sources and multipart uploads, task polling
 * with long-poll, task results, and task cancellation.
 */
import type { ConversionOptions, ConversionResult } from "@groundwork/convert";
import { invalidRequest, notFound } from "@groundwork/core";
import type { ConversionTask, ConversionTaskInput } from "@groundwork/store-sqlite";
import type { Context, Hono } from "hono";
import { readBody, validate } from "../../http/body.js";
import type { AppEnv } from "../../http/env.js";
import { requireRole } from "../../http/guards.js";
import {
  pipelineOptionsSchema,
  type SourceRequest,
  sourceRequestSchema,
  topOptionsSchema,
} from "./schemas.js";

export const RETRY_AFTER_SECONDS = 5;
export const MAX_WAIT_SECONDS = 60;

const HTTP_STATUS = { SUCCESS: 200, PARTIAL_SUCCESS: 207, FAILURE: 422 } as const;

function sourceInputs(body: SourceRequest): ConversionTaskInput[] {
  return body.sources.map(
    (source): ConversionTaskInput =>
      source.kind === "http"
        ? { kind: "http", url: source.url, headers: source.headers ?? null }
        : {
            kind: "bytes",
            filename: source.filename ?? null,
            mimeType: source.mimeType ?? null,
            content: new Uint8Array(Buffer.from(source.content, "base64")),
          },
  );
}

function formValue(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

async function formJson(value: unknown, field: string): Promise<unknown> {
  const text = value instanceof File ? await value.text() : typeof value === "string" ? value : undefined;
  if (text === undefined || text.trim() === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw invalidRequest(`${field}: not valid JSON`, { param: field });
  }
}

function formBoolean(value: unknown, field: string): boolean | undefined {
  const text = formValue(value);
  if (text === undefined || text === "") return undefined;
  if (text === "true") return true;
  if (text === "false") return false;
  throw invalidRequest(`${field}: expected true or false`, { param: field });
}

/** Reads a multipart upload: `files` (repeatable), `pipeline` (field or query), `options` (JSON part). */
async function readUpload(
  c: Context<AppEnv>,
): Promise<{ inputs: ConversionTaskInput[]; options: ConversionOptions }> {
  const type = c.req.header("content-type") ?? "";
  if (!/^multipart\/form-data/i.test(type)) {
    throw invalidRequest("The file endpoints take multipart/form-data with one or more `files` parts", {
      param: "files",
    });
  }
  let form: Record<string, unknown>;
  try {
    form = (await c.req.parseBody({ all: true })) as Record<string, unknown>;
  } catch {
    throw invalidRequest("The multipart body could not be parsed");
  }
  const raw = form.files ?? form["files[]"];
  const files = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).filter(
    (item): item is File => item instanceof File,
  );
  if (files.length === 0)
    throw invalidRequest("files: at least one file part is required", { param: "files" });
  const pipeline = formValue(form.pipeline) ?? c.req.query("pipeline");
  const timeout = formValue(form.timeout);
  const top = validate(topOptionsSchema, {
    ...(pipeline === undefined || pipeline === "" ? {} : { pipeline }),
    ...(timeout === undefined || timeout === "" ? {} : { timeout: Number(timeout) }),
    ...(formBoolean(form.abortOnError, "abortOnError") === undefined
      ? {}
      : { abortOnError: formBoolean(form.abortOnError, "abortOnError") }),
    ...(formBoolean(form.extractMetadata, "extractMetadata") === undefined
      ? {}
      : { extractMetadata: formBoolean(form.extractMetadata, "extractMetadata") }),
  });
  const nested = await formJson(form.options, "options");
  const options: ConversionOptions = {
    ...top,
    ...(nested === undefined
      ? {}
      : { options: prefixed(() => validate(pipelineOptionsSchema, nested), "options") }),
  } as ConversionOptions;
  const inputs: ConversionTaskInput[] = await Promise.all(
    files.map(async (file) => ({
      kind: "bytes" as const,
      filename: file.name || null,
      mimeType: file.type && file.type !== "application/octet-stream" ? file.type : null,
      content: new Uint8Array(await file.arrayBuffer()),
    })),
  );
  return { inputs, options };
}

function prefixed<T>(run: () => T, prefix: string): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof Error && "param" in error) {
      const param = (error as { param: string | null }).param;
      throw invalidRequest(`${prefix}.${error.message}`, {
        param: param === null ? prefix : `${prefix}.${param}`,
      });
    }
    throw error;
  }
}

/** The task object of the spec ("Conversion task"). */
export function taskView(task: ConversionTask) {
  const finished = task.status === "success" || task.status === "failure";
  return {
    taskId: task.id,
    taskType: "CONVERT" as const,
    taskStatus: task.status,
    taskMeta: {
      numDocs: task.numDocs,
      numProcessed: task.numProcessed,
      ...(finished ? { numSucceeded: task.numSucceeded ?? 0, numFailed: task.numFailed ?? 0 } : {}),
    },
  };
}

function resultResponse(c: Context<AppEnv>, result: ConversionResult): Response {
  return c.json(result, HTTP_STATUS[result.status]);
}

export function registerConvertRoutes(app: Hono<AppEnv>): void {
  const service = (c: Context<AppEnv>) => c.var.groundwork.conversion;

  app.post("/v1/convert/source", requireRole("member"), async (c) => {
    const body = await readBody(c, sourceRequestSchema);
    const result = await service(c).convertFor(
      c.var.principal.organizationId,
      sourceInputs(body),
      (body.options ?? {}) as ConversionOptions,
      c.req.raw.signal,
    );
    return resultResponse(c, result);
  });

  app.post("/v1/convert/file", requireRole("member"), async (c) => {
    const { inputs, options } = await readUpload(c);
    return resultResponse(
      c,
      await service(c).convertFor(c.var.principal.organizationId, inputs, options, c.req.raw.signal),
    );
  });

  const accepted = (c: Context<AppEnv>, task: ConversionTask) =>
    c.json(taskView(task), 202, {
      Location: `/v1/convert/tasks/${task.id}`,
      "Retry-After": String(RETRY_AFTER_SECONDS),
    });

  app.post("/v1/convert/source/async", requireRole("member"), async (c) => {
    const body = await readBody(c, sourceRequestSchema);
    const task = await service(c).submit(
      c.var.principal.organizationId,
      sourceInputs(body),
      (body.options ?? {}) as ConversionOptions,
    );
    return accepted(c, task);
  });

  app.post("/v1/convert/file/async", requireRole("member"), async (c) => {
    const { inputs, options } = await readUpload(c);
    return accepted(c, await service(c).submit(c.var.principal.organizationId, inputs, options));
  });

  const findTask = async (c: Context<AppEnv>): Promise<ConversionTask> => {
    const task = await c.var.store.conversionTasks.get(
      c.req.param("taskId") ?? "",
      c.var.principal.organizationId,
    );
    if (task === null) throw notFound(`No conversion task ${c.req.param("taskId")}`);
    return service(c).reconcile(task);
  };

  app.get("/v1/convert/tasks/:taskId", requireRole("viewer"), async (c) => {
    const rawWait = c.req.query("wait");
    let wait = 0;
    if (rawWait !== undefined && rawWait !== "") {
      wait = Number(rawWait);
      if (!Number.isFinite(wait) || wait < 0)
        throw invalidRequest("wait: expected a number of seconds (0-60)", { param: "wait" });
      wait = Math.min(wait, MAX_WAIT_SECONDS);
    }
    let task = await findTask(c);
    const deadline = Date.now() + wait * 1000;
    const signal = c.req.raw.signal;
    while (
      (task.status === "pending" || task.status === "processing") &&
      Date.now() < deadline &&
      !signal.aborted
    ) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(200, Math.max(1, deadline - Date.now()))));
      task = await findTask(c);
    }
    return c.json(taskView(task));
  });

  app.get("/v1/convert/tasks/:taskId/result", requireRole("viewer"), async (c) => {
    const task = await findTask(c);
    if (task.status === "pending" || task.status === "processing") {
      return c.json(
        {
          status: task.status === "pending" ? "PENDING" : "PROCESSING",
          documents: [],
          errors: [],
          processingTime: null,
          task: taskView(task),
        },
        202,
        { "Retry-After": String(RETRY_AFTER_SECONDS) },
      );
    }
    return resultResponse(c, task.result as ConversionResult);
  });

  app.delete("/v1/convert/tasks/:taskId", requireRole("member"), async (c) => {
    const task = await findTask(c);
    if (task.status === "pending" || task.status === "processing") {
      await service(c).cancel(task);
      return c.json(taskView((await c.var.store.conversionTasks.get(task.id)) ?? task));
    }
    await c.var.store.conversionTasks.delete(task.id, c.var.principal.organizationId);
    return c.body(null, 204);
  });
}
