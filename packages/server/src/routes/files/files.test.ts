/** `/v1/files`: upload, list, get, download, delete. */
import { describe, expect, it } from "vitest";
import { bearer, bodyOf, createTestTenant } from "../../../test/test-support.js";
import { createApp } from "../../app.js";

async function setup() {
  const tenant = await createTestTenant();
  const app = createApp({ store: tenant.store });
  const upload = (
    content: string | Uint8Array,
    name: string,
    purpose: string | null,
    role: "viewer" | "member" = "member",
  ) => {
    const form = new FormData();
    form.append("file", new File([content], name, { type: "text/plain" }));
    if (purpose !== null) form.append("purpose", purpose);
    return app.request("/v1/files", { method: "POST", headers: bearer(tenant.keys[role]), body: form });
  };
  return { tenant, app, upload };
}

describe("/v1/files", () => {
  it("uploads (201), gets, downloads, lists newest first, deletes (Admin) and answers 410 afterwards", async () => {
    const { tenant, app, upload } = await setup();
    const first = await upload("first file", "one.txt", "knowledge");
    expect(first.status).toBe(201);
    const one = await bodyOf(first);
    expect(one).toMatchObject({
      object: "file",
      filename: "one.txt",
      purpose: "knowledge",
      bytes: 10,
      mime: "text/plain",
    });
    expect(one.id).toMatch(/^file_/);
    const two = await bodyOf(await upload("second", "two.txt", "user_data"));

    const got = await app.request(`/v1/files/${one.id}`, { headers: bearer(tenant.keys.viewer) });
    expect(await got.json()).toEqual(one);
    const content = await app.request(`/v1/files/${one.id}/content`, { headers: bearer(tenant.keys.viewer) });
    expect(content.status).toBe(200);
    expect(content.headers.get("content-type")).toBe("text/plain");
    expect(content.headers.get("content-disposition")).toContain("one.txt");
    expect(await content.text()).toBe("first file");

    const list = await bodyOf(await app.request("/v1/files", { headers: bearer(tenant.keys.viewer) }));
    expect(list).toMatchObject({ page: 0, size: 20, totalElements: 2, totalPages: 1 });
    expect((list.content as Array<{ id: string }>).map((f) => f.id)).toEqual([two.id, one.id]);
    const knowledge = await bodyOf(
      await app.request("/v1/files?purpose=knowledge", { headers: bearer(tenant.keys.viewer) }),
    );
    expect((knowledge.content as Array<{ id: string }>).map((f) => f.id)).toEqual([one.id]);

    expect(
      (await app.request(`/v1/files/${one.id}`, { method: "DELETE", headers: bearer(tenant.keys.member) }))
        .status,
    ).toBe(403);
    expect(
      (await app.request(`/v1/files/${one.id}`, { method: "DELETE", headers: bearer(tenant.keys.admin) }))
        .status,
    ).toBe(204);
    expect((await app.request(`/v1/files/${one.id}`, { headers: bearer(tenant.keys.viewer) })).status).toBe(
      410,
    );
    expect(
      (await app.request(`/v1/files/${one.id}/content`, { headers: bearer(tenant.keys.viewer) })).status,
    ).toBe(410);
    expect(
      (await app.request(`/v1/files/${one.id}`, { method: "DELETE", headers: bearer(tenant.keys.admin) }))
        .status,
    ).toBe(410);
    const after = await bodyOf(await app.request("/v1/files", { headers: bearer(tenant.keys.viewer) }));
    expect(after.totalElements).toBe(1);
  });

  it("validates: purpose, missing file, empty file, 25 MB limit, roles, other organizations", async () => {
    const { tenant, app, upload } = await setup();
    expect((await upload("x", "a.txt", null)).status).toBe(400);
    expect((await upload("x", "a.txt", "batch")).status).toBe(400);
    expect((await upload("", "a.txt", "knowledge")).status).toBe(400);
    const big = await upload(new Uint8Array(25 * 1024 * 1024 + 1), "big.txt", "knowledge");
    expect(big.status).toBe(413);
    expect((await bodyOf(big)).error.code).toBe("file_too_large");
    expect((await upload("x", "a.txt", "knowledge", "viewer")).status).toBe(403);
    const form = new FormData();
    form.append("purpose", "knowledge");
    expect(
      (await app.request("/v1/files", { method: "POST", headers: bearer(tenant.keys.member), body: form }))
        .status,
    ).toBe(400);
    const mine = await bodyOf(await upload("x", "a.txt", "knowledge"));
    const other = await tenant.keyFor("admin", "team");
    expect((await app.request(`/v1/files/${mine.id}`, { headers: bearer(other) })).status).toBe(404);
    expect(
      (await app.request("/v1/files/file_unknown", { headers: bearer(tenant.keys.viewer) })).status,
    ).toBe(404);
    expect(
      (await app.request("/v1/files?purpose=nope", { headers: bearer(tenant.keys.viewer) })).status,
    ).toBe(400);
  });
});
