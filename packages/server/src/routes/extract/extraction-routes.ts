/**
 * Extractions (spec document 2, "Extractions"): run, run in the background, estimate, rerun,
 * read (polling), list and delete. Viewer reads, Member runs, Admin deletes.
 */
import { conflict, invalidRequest, notFound, parsePageRequest, toPage } from "@groundwork/core";
import { checkExtractionInput } from "@groundwork/extract";
import { parseModelString } from "@groundwork/gateway";
import type { ExtractionPlan, ExtractionService } from "@groundwork/platform";
import type { ExtractionRecord, ExtractionStatus } from "@groundwork/store-sqlite";
import type { Context, Hono } from "hono";
import { readBody } from "../../http/body.js";
import type { AppEnv } from "../../http/env.js";
import { requireRole } from "../../http/guards.js";
import { EXTRACTION_STATUSES, estimateBody, extractionBody } from "./bodies.js";
import { extractionView } from "./views.js";

const RETRY_AFTER_SECONDS = 5;

function accepted(c: Context<AppEnv>, record: ExtractionRecord): Response {
  return c.json(extractionView(record), 202, {
    Location: `/v1/extractions/${record.id}`,
    "Retry-After": String(RETRY_AFTER_SECONDS),
  });
}

export function registerExtractionRoutes(
  app: Hono<AppEnv>,
  service: (c: Context<AppEnv>) => ExtractionService,
): void {
  async function readPlan(c: Context<AppEnv>): Promise<ExtractionPlan> {
    const body = await readBody(c, extractionBody);
    const images = checkExtractionInput(body);
    parseModelString(body.model);
    const { schema, version } = service(c).resolveVersion(
      c.var.principal.organizationId,
      body.schemaId,
      body.schemaVersionId,
    );
    const inputText =
      typeof body.inputText === "string" && body.inputText.trim() !== "" ? body.inputText : null;
    return { schema, version, model: body.model, inputText, images };
  }

  async function start(c: Context<AppEnv>, plan: ExtractionPlan, background: boolean): Promise<Response> {
    const principal = c.var.principal;
    const { strategy, inputTokens } = service(c).strategyFor(principal, plan.inputText);
    if (background || strategy === "ASYNC")
      return accepted(c, await service(c).submit(principal, plan, inputTokens));
    const record = await service(c).runNow(principal, plan, strategy, inputTokens, c.req.raw.signal);
    return c.json(extractionView(record), 201);
  }

  app.post("/v1/extractions", requireRole("member"), async (c) => start(c, await readPlan(c), false));

  app.post("/v1/extractions/async", requireRole("member"), async (c) => start(c, await readPlan(c), true));

  app.post("/v1/extractions/estimate", requireRole("viewer"), async (c) => {
    const body = await readBody(c, estimateBody);
    service(c).resolveVersion(c.var.principal.organizationId, body.schemaId, body.schemaVersionId);
    return c.json(service(c).engineFor(c.var.principal).estimate(body.inputText));
  });

  const find = async (c: Context<AppEnv>): Promise<ExtractionRecord> => {
    const id = c.req.param("id") ?? "";
    const record = c.var.store.extractions.get(c.var.principal.organizationId, id);
    if (record === null) throw notFound(`No extraction ${id}`);
    return service(c).reconcile(record);
  };

  app.post("/v1/extractions/:id/rerun", requireRole("member"), async (c) => {
    const original = await find(c);
    if (original.status === "PENDING" || original.status === "PROCESSING") {
      throw conflict(`Extraction ${original.id} is ${original.status}; rerun it once it has finished`);
    }
    if (original.inputText === null) {
      throw conflict(
        `Extraction ${original.id} was image-only and images are not stored, so it cannot be rerun`,
      );
    }
    const schemas = c.var.store.schemas;
    const version = schemas.getVersion(
      c.var.principal.organizationId,
      original.schemaId,
      original.schemaVersionId,
    );
    const schema = schemas.get(c.var.principal.organizationId, original.schemaId);
    if (version === null || schema === null || !version.active) {
      throw conflict(`The schema version of extraction ${original.id} has since been deleted`);
    }
    const plan: ExtractionPlan = {
      schema,
      version,
      model: original.model,
      inputText: original.inputText,
      images: [],
      rerunOf: original.id,
    };
    // "Runs the way the original ran": a background original reruns in the background.
    return start(c, plan, original.strategy === "ASYNC");
  });

  app.get("/v1/extractions/:id", requireRole("viewer"), async (c) => c.json(extractionView(await find(c))));

  app.get("/v1/extractions", requireRole("viewer"), (c) => {
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
    const result = c.var.store.extractions.list(c.var.principal.organizationId, request, {
      ...(search === undefined || search === "" ? {} : { search }),
      ...(schemaVersionId === undefined || schemaVersionId === "" ? {} : { schemaVersionId }),
      ...(status === undefined || status === "" ? {} : { status: status as ExtractionStatus }),
    });
    return c.json(toPage(result.items.map(extractionView), request, result.total));
  });

  app.delete("/v1/extractions/:id", requireRole("admin"), async (c) => {
    const record = await find(c);
    c.var.store.extractions.delete(c.var.principal.organizationId, record.id);
    return c.body(null, 204);
  });
}
