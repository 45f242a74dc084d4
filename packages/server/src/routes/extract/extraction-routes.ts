/**
 * Extractions (spec document 2, "Extractions"): run, run in the background, estimate, rerun,
 * read (polling), list and delete. Viewer reads, Member runs, Admin deletes.
 */
import { invalidRequest, parsePageRequest, toPage } from "@groundwork/core";
import type { ExtractionService } from "@groundwork/platform";
import type { ExtractionRecord, ExtractionStatus } from "@groundwork/store-sqlite";
import type { Context, Hono } from "hono";
import { readBody } from "../../http/body.js";
import type { AppEnv } from "../../http/env.js";
import { requireRole } from "../../http/guards.js";
import { EXTRACTION_STATUSES, estimateBody, extractionBody } from "./bodies.js";
import { extractionDetailView, extractionView } from "./views.js";

const RETRY_AFTER_SECONDS = 5;

function accepted(c: Context<AppEnv>, record: ExtractionRecord): Response {
  return c.json(extractionDetailView(record), 202, {
    Location: `/v1/extractions/${record.id}`,
    "Retry-After": String(RETRY_AFTER_SECONDS),
  });
}

export function registerExtractionRoutes(
  app: Hono<AppEnv>,
  service: (c: Context<AppEnv>) => ExtractionService,
): void {
  async function extract(c: Context<AppEnv>, background: boolean): Promise<Response> {
    const body = await readBody(c, extractionBody);
    const record = await service(c).extract(c.var.principal, {
      ...body,
      background,
      signal: c.req.raw.signal,
    });
    return record.status === "PENDING" ? accepted(c, record) : c.json(extractionDetailView(record), 201);
  }

  app.post("/v1/extractions", requireRole("member"), (c) => extract(c, false));

  app.post("/v1/extractions/async", requireRole("member"), (c) => extract(c, true));

  app.post("/v1/extractions/estimate", requireRole("viewer"), async (c) => {
    const body = await readBody(c, estimateBody);
    await service(c).resolveVersion(c.var.principal.organizationId, body.schemaId, body.schemaVersionId);
    return c.json(service(c).engineFor(c.var.principal).estimate(body.inputText));
  });

  const find = async (c: Context<AppEnv>): Promise<ExtractionRecord> =>
    await service(c).find(c.var.principal.organizationId, c.req.param("id") ?? "");

  app.post("/v1/extractions/:id/rerun", requireRole("member"), async (c) => {
    const record = await service(c).rerun(c.var.principal, c.req.param("id") ?? "", c.req.raw.signal);
    return record.status === "PENDING" ? accepted(c, record) : c.json(extractionDetailView(record), 201);
  });

  app.get("/v1/extractions/:id", requireRole("viewer"), async (c) =>
    c.json(extractionDetailView(await find(c))),
  );

  app.get("/v1/extractions", requireRole("viewer"), async (c) => {
    const request = parsePageRequest({ page: c.req.query("page"), size: c.req.query("size") });
    const status = c.req.query("status");
    if (
      status !== undefined &&
      status !== "" &&
      !(EXTRACTION_STATUSES as readonly string[]).includes(status)
    ) {
      throw invalidRequest(`status must be one of ${EXTRACTION_STATUSES.join(", ")}`, { param: "status" });
    }
    const search = c.req.query("search");
    const schemaVersionId = c.req.query("schemaVersionId");
    const result = await c.var.store.extractions.list(c.var.principal.organizationId, request, {
      ...(search === undefined || search === "" ? {} : { search }),
      ...(schemaVersionId === undefined || schemaVersionId === "" ? {} : { schemaVersionId }),
      ...(status === undefined || status === "" ? {} : { status: status as ExtractionStatus }),
    });
    return c.json(toPage(result.items.map(extractionView), request, result.total));
  });

  app.delete("/v1/extractions/:id", requireRole("admin"), async (c) => {
    const record = await find(c);
    await c.var.store.extractions.delete(c.var.principal.organizationId, record.id);
    return c.body(null, 204);
  });
}
