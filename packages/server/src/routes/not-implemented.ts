/**
 * The spec's /v1 areas this build does not serve yet. They answer 501 with a
 * clear message (after authentication) rather than a confusing 404, and the
 * README's status table lists the same areas. Each entry is removed when its
 * area lands.
 */
import { notImplemented } from "@groundwork/core";
import type { Hono } from "hono";
import type { AppEnv } from "../http/env.js";

export const PENDING_AREAS: ReadonlyArray<{ paths: string[]; area: string }> = [
  { paths: ["/v1/responses/*"], area: "Stored responses" },
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
