/**
 * First start: an empty database gets the organization `default` (plan
 * enterprise) and an Admin key, written to `<data>/bootstrap-key` (mode 0600) so
 * a self-hoster who missed the console output can still find it.
 */
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { PlatformStore } from "@groundwork/platform";

export interface BootstrapResult {
  key: string;
  keyFile: string;
  organizationId: string;
}

export async function bootstrapIfEmpty(
  store: PlatformStore,
  dataDir: string,
): Promise<BootstrapResult | null> {
  if ((await store.organizations.count()) > 0) return null;
  // Several servers starting together on one empty PostgreSQL database: one creates `default`
  // and its key, the others find it and print nothing.
  const { organization, created } = await store.organizations.ensure("default", "enterprise");
  if (!created) return null;
  const { key } = await store.apiKeys.create({
    organizationId: organization.id,
    role: "admin",
    name: "bootstrap",
  });
  const keyFile = join(dataDir, "bootstrap-key");
  writeFileSync(keyFile, `${key}\n`, { mode: 0o600 });
  chmodSync(keyFile, 0o600); // an existing file keeps its old mode on write
  return { key, keyFile, organizationId: organization.id };
}
