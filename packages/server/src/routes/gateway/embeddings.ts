import { notAcceptable } from "@groundwork/core";
import { type Gateway, parseEmbeddingsBody } from "@groundwork/gateway";
import type { Hono } from "hono";
import { readJson } from "../../http/body.js";
import type { AppEnv } from "../../http/env.js";
import { requireRole } from "../../http/guards.js";
import { callContext } from "./call-context.js";

/** True when an Accept header admits a JSON answer (absent, wildcard or application/json). */
export function acceptsJson(accept: string | undefined): boolean {
  if (accept === undefined || accept.trim() === "") return true;
  return accept.split(",").some((range) => {
    const [type, ...params] = range.trim().toLowerCase().split(";");
    const refused = params.some((p) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(p));
    return !refused && (type === "*/*" || type === "application/*" || type === "application/json");
  });
}

export function registerEmbeddings(app: Hono<AppEnv>, gateway: Gateway): void {
  app.post("/v1/embeddings", async (c, next) => {
    if (!acceptsJson(c.req.header("accept"))) {
      throw notAcceptable("This endpoint answers application/json; the Accept header excludes it");
    }
    await next();
  });
  app.post("/v1/embeddings", requireRole("member"), async (c) => {
    const body = parseEmbeddingsBody(await readJson(c));
    return c.json(await gateway.embeddings(body, callContext(c)));
  });
}
