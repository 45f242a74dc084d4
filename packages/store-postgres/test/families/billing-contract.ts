/**
 * The billing family contract: pages per month, stored bytes over other families' tables
 * (files, knowledge-base revisions, skill versions, plugin manifests) and active keys, per
 * organization, every call awaited (SQLite is the reference).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { baseConfig } from "../../../kb/test/kb-ports-contract.js";
import type { AreaBackend, OpenArea } from "./usage-area-backend.js";
import { withArea } from "./usage-contract.js";

const JAN = Date.UTC(2025, 0, 1);
const FEB = Date.UTC(2025, 1, 1);
const MAR = Date.UTC(2025, 2, 1);

let serial = 0;
const rowId = (prefix: string) => `${prefix}_${Date.now().toString(36)}${++serial}`;

async function file(area: AreaBackend, org: string, bytes: number, deletedAt: number | null = null) {
  await area.insertRow("files", {
    id: rowId("file"),
    organization_id: org,
    filename: "a.txt",
    purpose: "knowledge",
    mime: "text/plain",
    byte_size: bytes,
    sha256: "x",
    created_at: 1,
    deleted_at: deletedAt,
  });
}

async function skillWithVersions(area: AreaBackend, org: string, sizes: readonly number[]) {
  const skillId = rowId("skl");
  await area.insertRow("skills", {
    id: skillId,
    organization_id: org,
    name: "s",
    qualified_name: `s${serial}`,
    description: "d",
    created_at: 1,
    updated_at: 1,
  });
  for (const [index, size] of sizes.entries()) {
    await area.insertRow("skill_versions", {
      id: rowId("skv"),
      skill_id: skillId,
      version_number: index + 1,
      name: "s",
      description: "d",
      frontmatter: "{}",
      skill_md: "# s",
      files: "[]",
      total_size: size,
      source: "import",
      created_at: 1,
    });
  }
}

async function plugin(area: AreaBackend, org: string, manifest: string) {
  await area.insertRow("plugins", {
    id: rowId("plg"),
    organization_id: org,
    name: `p${serial}`,
    version: "1.0.0",
    manifest,
    source_type: "upload",
    skill_ids: "[]",
    connector_ids: "[]",
    agent_ids: "[]",
    warnings: "[]",
    installed_at: 1,
    updated_at: 1,
  });
}

async function apiKey(area: AreaBackend, org: string, revokedAt: number | null = null) {
  const id = rowId("key");
  await area.insertRow("api_keys", {
    id,
    organization_id: org,
    name: "k",
    role: "member",
    prefix: "gw_",
    key_hash: `hash_${id}`,
    created_at: 1,
    revoked_at: revokedAt,
  });
  return id;
}

export function describeBillingContract(label: string, open: OpenArea): void {
  describe(`billing contract (${label})`, () => {
    it("adds pages to the month and reads them since a month's start, per organization", async () => {
      await withArea(open, JAN, async (area) => {
        const [org, other, fresh] = [
          await area.organization(),
          await area.organization(),
          await area.organization(),
        ];
        await area.billing.recordPages(org, JAN, 3);
        await area.billing.recordPages(org, JAN, 4);
        await area.billing.recordPages(org, FEB, 2);
        await area.billing.recordPages(org, FEB, 0);
        await area.billing.recordPages(org, FEB, -5);
        await area.billing.recordPages(other, FEB, 100);
        expect(await area.billing.pagesSince(org, JAN)).toBe(9);
        expect(await area.billing.pagesSince(org, FEB)).toBe(2);
        expect(await area.billing.pagesSince(org, MAR)).toBe(0);
        expect(await area.billing.pagesSince(other, JAN)).toBe(100);
        expect(await area.billing.pagesSince(fresh, JAN)).toBe(0);
      });
    });

    it("counts pages as a recount of random additions (concurrent ones too)", async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.tuple(fc.constantFrom(JAN, FEB, MAR), fc.integer({ min: -2, max: 50 })), {
            maxLength: 20,
          }),
          fc.constantFrom(JAN, FEB, MAR),
          async (additions, since) => {
            await withArea(open, JAN, async (area) => {
              const org = await area.organization();
              await Promise.all(
                additions.map(([month, pages]) => area.billing.recordPages(org, month, pages)),
              );
              const expected = additions
                .filter(([month, pages]) => month >= since && pages > 0)
                .reduce((sum, [, pages]) => sum + pages, 0);
              expect(await area.billing.pagesSince(org, since)).toBe(expected);
            });
          },
        ),
        { numRuns: 10 },
      );
    });

    it("counts live files, the newest revision of live documents, skill versions and plugin manifests", async () => {
      await withArea(open, JAN, async (area) => {
        const [org, other] = [await area.organization(), await area.organization()];
        expect(await area.billing.storedBytes(org)).toBe(0);
        await file(area, org, 100);
        await file(area, org, 7, 5);
        await file(area, other, 5000);
        await skillWithVersions(area, org, [30, 30]);
        // UTF-8 bytes of the manifest's text: "é" is two.
        await plugin(area, org, '{"name": "é"}');
        expect(await area.billing.storedBytes(org)).toBe(100 + 60 + 14);

        const kb = await area.knowledge.create(org, baseConfig);
        const upload = (name: string, bytes: number) =>
          area.knowledge.acceptUpload({
            knowledgeBase: kb,
            filename: name,
            mime: "text/plain",
            bytes: new Uint8Array(bytes),
            metadata: {},
            apiKeyId: null,
          });
        await upload("a.txt", 1000);
        const { document } = await upload("b.txt", 300);
        await upload("b.txt", 200); // a new revision: only the newest counts
        expect(await area.billing.storedBytes(org)).toBe(174 + 1000 + 200);
        await area.knowledge.deleteDocument(kb.id, document.id);
        expect(await area.billing.storedBytes(org)).toBe(174 + 1000);
        await area.exec(`UPDATE knowledge_bases SET deleted_at = 1 WHERE id = '${kb.id}'`);
        expect(await area.billing.storedBytes(org)).toBe(174);
        expect(await area.billing.storedBytes(other)).toBe(5000);
      });
    });

    it("counts unrevoked keys as seats", async () => {
      await withArea(open, JAN, async (area) => {
        const [org, other] = [await area.organization(), await area.organization()];
        expect(await area.billing.activeKeys(org)).toBe(0);
        await apiKey(area, org);
        await apiKey(area, org);
        await apiKey(area, org, 10);
        await apiKey(area, other);
        expect(await area.billing.activeKeys(org)).toBe(2);
        expect(await area.billing.activeKeys(other)).toBe(1);
      });
    });
  });
}
