/**
 * The spec's /v1 areas this build does not serve yet. They answer 501 with a
 * clear message (after authentication) rather than a confusing 404, and the
 * README's status table lists the same areas. Each entry is removed when its
 * area lands.
 */
import { notImplemented } from "@groundwork/core";
import type { Hono } from "hono";
import type { AppEnv } from "../http/env.js";

const PENDING_AREAS: ReadonlyArray<{ paths: string[]; area: string }> = [
  { paths: ["/v1/responses", "/v1/responses/*"], area: "The responses endpoint" },
  { paths: ["/v1/schemas", "/v1/schemas/*"], area: "Schemas" },
  { paths: ["/v1/extractions", "/v1/extractions/*"], area: "Extractions" },
  { paths: ["/v1/knowledge-bases", "/v1/knowledge-bases/*"], area: "Knowledge bases" },
  { paths: ["/v1/files", "/v1/files/*"], area: "Files" },
  { paths: ["/v1/agents", "/v1/agents/*"], area: "Agents" },
];

export function registerPendingAreas(app: Hono<AppEnv>): void {
  for (const { paths, area } of PENDING_AREAS) {
    for (const path of paths) {
      app.all(path, () => {
        throw notImplemented(
          `Not implemented in this build yet: ${area} (see the status table in README.md)`,
        );
      });
    }
  }
}
