/** Schemas, versions, labels, resolve and validate over HTTP (`app.request()`, no socket). */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { bearer, bodyOf, createTestTenant, type TestTenant } from "../../../test/test-support.js";
import { type App, createApp } from "../../app.js";

let tenant: TestTenant;
let app: App;

beforeEach(async () => {
  tenant = await createTestTenant("enterprise");
  app = createApp({ store: tenant.store });
});
afterEach(async () => await tenant.store.close());

function send(method: string, path: string, body?: unknown, key = tenant.keys.member) {
  return app.request(path, {
    method,
    headers: { ...bearer(key), "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function json(method: string, path: string, body?: unknown, key?: string, status = 200) {
  const response = await send(method, path, body, key);
  const parsed = await bodyOf(response);
  expect(response.status, JSON.stringify(parsed)).toBe(status);
  return parsed as Record<string, unknown> & {
    error: { message: string; code: string; param: string | null };
  };
}

const invoiceSchema = {
  type: "object",
  properties: { invoiceNumber: { type: ["string", "null"] } },
};

async function createSchema(name = "Invoice", description?: string) {
  return json("POST", "/v1/schemas", { name, description, content: { ignored: true } }, undefined, 201);
}

async function commit(schemaId: string, jsonSchema: unknown = invoiceSchema, changeDescription?: string) {
  return json("POST", `/v1/schemas/${schemaId}/versions`, { jsonSchema, changeDescription }, undefined, 201);
}

describe("schemas", () => {
  it("creates, reads, updates, lists with search and paging, and deletes (Admin)", async () => {
    const created = await createSchema("Invoice", "Supplier invoices");
    expect(created).toMatchObject({ name: "Invoice", description: "Supplier invoices", content: null });
    expect(created.id).toMatch(/^sch_/);
    expect(created.createdAt).toMatch(/^\d{4}-\d\d-\d\dT/);

    const id = created.id as string;
    expect(await json("GET", `/v1/schemas/${id}`, undefined, tenant.keys.viewer)).toMatchObject({
      name: "Invoice",
    });
    expect(await json("PUT", `/v1/schemas/${id}`, { description: "Bills" })).toMatchObject({
      name: "Invoice",
      description: "Bills",
    });
    await json("PUT", `/v1/schemas/${id}`, {}, undefined, 400);

    await createSchema("Receipt");
    await createSchema("Contract");
    const page = await json("GET", "/v1/schemas?size=2", undefined, tenant.keys.viewer);
    expect(page).toMatchObject({ page: 0, size: 2, totalElements: 3, totalPages: 2 });
    expect((page.content as Array<{ name: string }>).map((s) => s.name)).toEqual(["Contract", "Receipt"]);
    const found = await json("GET", "/v1/schemas?search=bill", undefined, tenant.keys.viewer);
    expect((found.content as Array<{ name: string }>).map((s) => s.name)).toEqual(["Invoice"]);
    expect((await json("GET", "/v1/schemas?page=x", undefined, undefined, 400)).error.param).toBe("page");

    expect((await send("DELETE", `/v1/schemas/${id}`)).status).toBe(403);
    expect((await send("DELETE", `/v1/schemas/${id}`, undefined, tenant.keys.admin)).status).toBe(204);
    await json("GET", `/v1/schemas/${id}`, undefined, undefined, 404);
  });

  it("needs a name, Member to create, and hides other organizations' schemas", async () => {
    expect((await json("POST", "/v1/schemas", { description: "x" }, undefined, 400)).error.param).toBe(
      "name",
    );
    await json("POST", "/v1/schemas", { name: "x" }, tenant.keys.viewer, 403);
    const created = await createSchema();
    const outsider = await tenant.keyFor("admin", "enterprise");
    await json("GET", `/v1/schemas/${created.id}`, undefined, outsider, 404);
    expect((await json("GET", "/v1/schemas", undefined, outsider)).totalElements).toBe(0);
  });
});

describe("schema versions", () => {
  it("commits numbered versions, moves latest, deactivates (Admin) and re-activates as a copy", async () => {
    const schema = await createSchema();
    const id = schema.id as string;
    const latestWhileNone = await send("GET", `/v1/schemas/${id}/versions/latest`);
    expect(latestWhileNone.status).toBe(404);

    const v1 = await commit(id, invoiceSchema, "first");
    expect(v1).toMatchObject({
      versionNumber: 1,
      jsonSchema: invoiceSchema,
      changeDescription: "first",
      active: true,
      extractionConfig: null,
    });
    const v2 = await commit(id, { type: "object", properties: { total: { type: ["number", "null"] } } });
    expect(v2.versionNumber).toBe(2);

    const latest = await send("GET", `/v1/schemas/${id}/versions/latest`, undefined, tenant.keys.viewer);
    expect(latest.status).toBe(200);
    expect(latest.headers.get("deprecation")).toBe("true");
    expect(latest.headers.get("link")).toContain(`/v1/schemas/${id}/resolve`);
    expect((await bodyOf(latest)).id).toBe(v2.id);
    expect((await json("GET", `/v1/schemas/${id}`)).latestVersionNumber).toBe(2);

    const listed = await json(
      "GET",
      `/v1/schemas/${id}/versions?size=1&page=1`,
      undefined,
      tenant.keys.viewer,
    );
    expect(listed).toMatchObject({ totalElements: 2, totalPages: 2, content: [{ id: v1.id }] });
    expect(await json("GET", `/v1/schemas/${id}/versions/${v1.id}`)).toMatchObject({ versionNumber: 1 });
    await json("GET", `/v1/schemas/${id}/versions/scv_nope`, undefined, undefined, 404);

    expect((await send("DELETE", `/v1/schemas/${id}/versions/${v2.id}`)).status).toBe(403);
    expect(
      (await send("DELETE", `/v1/schemas/${id}/versions/${v2.id}`, undefined, tenant.keys.admin)).status,
    ).toBe(204);
    expect(await json("GET", `/v1/schemas/${id}/versions/${v2.id}`)).toMatchObject({ active: false });
    expect((await json("GET", `/v1/schemas/${id}/versions/latest`)).id).toBe(v1.id);

    const v3 = await json("PUT", `/v1/schemas/${id}/versions/${v2.id}/activate`);
    expect(v3).toMatchObject({
      versionNumber: 3,
      jsonSchema: v2.jsonSchema,
      active: true,
      copiedFromVersionId: v2.id,
    });
    expect((await json("GET", `/v1/schemas/${id}/resolve`)).versionId).toBe(v3.id);
    // the historical version itself is unchanged
    expect(await json("GET", `/v1/schemas/${id}/versions/${v2.id}`)).toMatchObject({
      versionNumber: 2,
      active: false,
    });
  });

  it.each([
    ["not an object", [1, 2], /^The schema definition must be a JSON object$/],
    ["no schema keyword", { title: "Invoice" }, /at least one JSON Schema keyword/],
    ["invalid", { type: "object", properties: { a: { type: "strng" } } }, /^Invalid JSON Schema: /],
  ])("answers 400 at commit when the definition is %s", async (_case, jsonSchema, message) => {
    const schema = await createSchema();
    const failed = await json("POST", `/v1/schemas/${schema.id}/versions`, { jsonSchema }, undefined, 400);
    expect(failed.error.message).toMatch(message);
    expect(failed.error.param).toBe("jsonSchema");
    expect((await json("GET", `/v1/schemas/${schema.id}/versions`)).totalElements).toBe(0);
  });

  it("requires jsonSchema and refuses extractionConfig on commit", async () => {
    const schema = await createSchema();
    expect((await json("POST", `/v1/schemas/${schema.id}/versions`, {}, undefined, 400)).error.param).toBe(
      "jsonSchema",
    );
    const refused = await json(
      "POST",
      `/v1/schemas/${schema.id}/versions`,
      { jsonSchema: invoiceSchema, extractionConfig: { rules: [] } },
      undefined,
      400,
    );
    expect(refused.error.message).toMatch(/set by support/);
    await json("POST", `/v1/schemas/sch_missing/versions`, { jsonSchema: invoiceSchema }, undefined, 404);
  });
});

describe("labels and resolve", () => {
  it("keeps the system latest label, manages custom labels and resolves them", async () => {
    const schema = await createSchema();
    const id = schema.id as string;
    expect(await json("GET", `/v1/schemas/${id}/labels`)).toEqual([
      expect.objectContaining({ name: "latest", schemaVersionId: null, system: true }),
    ]);
    expect((await json("GET", `/v1/schemas/${id}/resolve`, undefined, undefined, 404)).error.param).toBe(
      "label",
    );

    const v1 = await commit(id);
    const v2 = await commit(id);
    const label = await json(
      "POST",
      `/v1/schemas/${id}/labels`,
      { name: "prod-eu-1", schemaVersionId: v1.id },
      undefined,
      201,
    );
    expect(label).toMatchObject({ name: "prod-eu-1", schemaVersionId: v1.id, system: false });
    await json(
      "POST",
      `/v1/schemas/${id}/labels`,
      { name: "prod-eu-1", schemaVersionId: v2.id },
      undefined,
      409,
    );
    for (const name of ["Prod", "prod_1", "prod eu", ""]) {
      expect(
        (await json("POST", `/v1/schemas/${id}/labels`, { name, schemaVersionId: v1.id }, undefined, 400))
          .error.param,
      ).toBe("name");
    }
    await json(
      "POST",
      `/v1/schemas/${id}/labels`,
      { name: "latest", schemaVersionId: v1.id },
      undefined,
      409,
    );
    await json(
      "POST",
      `/v1/schemas/${id}/labels`,
      { name: "other", schemaVersionId: "scv_nope" },
      undefined,
      404,
    );

    expect(
      await json("GET", `/v1/schemas/${id}/resolve?label=prod-eu-1`, undefined, tenant.keys.viewer),
    ).toEqual({
      schemaId: id,
      schemaName: "Invoice",
      versionId: v1.id,
      versionNumber: 1,
      jsonSchema: invoiceSchema,
      label: "prod-eu-1",
    });
    expect(await json("GET", `/v1/schemas/${id}/resolve`)).toMatchObject({
      versionId: v2.id,
      label: "latest",
    });
    await json("GET", `/v1/schemas/${id}/resolve?label=nope`, undefined, undefined, 404);

    expect(await json("PUT", `/v1/schemas/${id}/labels/prod-eu-1`, { schemaVersionId: v2.id })).toMatchObject(
      { schemaVersionId: v2.id },
    );
    await json("PUT", `/v1/schemas/${id}/labels/latest`, { schemaVersionId: v1.id }, undefined, 409);
    await json("PUT", `/v1/schemas/${id}/labels/nope`, { schemaVersionId: v1.id }, undefined, 404);

    // a label cannot point at a deactivated version
    await send("DELETE", `/v1/schemas/${id}/versions/${v1.id}`, undefined, tenant.keys.admin);
    await json("PUT", `/v1/schemas/${id}/labels/prod-eu-1`, { schemaVersionId: v1.id }, undefined, 409);

    expect((await send("DELETE", `/v1/schemas/${id}/labels/prod-eu-1`)).status).toBe(403);
    expect(
      (await send("DELETE", `/v1/schemas/${id}/labels/latest`, undefined, tenant.keys.admin)).status,
    ).toBe(409);
    expect(
      (await send("DELETE", `/v1/schemas/${id}/labels/prod-eu-1`, undefined, tenant.keys.admin)).status,
    ).toBe(204);
    expect(
      (await send("DELETE", `/v1/schemas/${id}/labels/prod-eu-1`, undefined, tenant.keys.admin)).status,
    ).toBe(404);
    expect((await json("GET", `/v1/schemas/${id}/labels`)).length).toBe(1);
  });
});

describe("POST /v1/schemas/{id}/validate", () => {
  async function validate(jsonSchema: unknown, key = tenant.keys.viewer) {
    const schema = await createSchema();
    return json("POST", `/v1/schemas/${schema.id}/validate`, { jsonSchema }, key);
  }

  it.each([
    ["not-an-object", "a string", "The schema definition must be a JSON object"],
    ["no-schema-keyword", { description: "x" }, "at least one JSON Schema keyword"],
    ["invalid-schema", { type: "object", required: "a" }, "Invalid JSON Schema: "],
  ])("reports the %s error with valid false", async (rule, jsonSchema, message) => {
    const result = await validate(jsonSchema);
    expect(result.valid).toBe(false);
    expect(result.warnings).toEqual([]);
    expect(result.errors).toEqual([
      expect.objectContaining({ rule, message: expect.stringContaining(message) }),
    ]);
  });

  it("reports each lint rule with rule, pointer, message and suggestion, leaving valid true", async () => {
    const result = await validate({
      type: "object",
      required: ["vendor", "status", "lines"],
      properties: {
        vendor: { type: "string" },
        status: { type: "string", enum: ["paid", "open"] },
        lines: {
          type: "array",
          minItems: 1,
          items: { type: "object", properties: { sku: { type: "string", pattern: "^[A-Z]" } } },
        },
      },
    });
    expect(result.valid).toBe(true);
    expect(result.errors).toEqual([]);
    const warnings = result.warnings as Array<{
      rule: string;
      pointer: string;
      message: string;
      suggestion?: string;
    }>;
    expect(warnings.map((w) => [w.rule, w.pointer])).toEqual([
      ["required-non-nullable", "/properties/vendor"],
      ["required-enum", "/properties/status"],
      ["required-non-nullable", "/properties/lines"],
      ["min-items", "/properties/lines/minItems"],
      ["provider-rewrite", "/properties/lines/items/properties/sku/pattern"],
    ]);
    for (const warning of warnings) {
      expect(warning.message.length).toBeGreaterThan(10);
      expect(warning.suggestion?.length).toBeGreaterThan(10);
    }
  });

  it("checks against the organization's configured providers (prompt-only flags the whole schema)", async () => {
    const addProvider = (provider: string, config: Record<string, unknown>) =>
      json(
        "POST",
        "/v1/providers",
        { name: provider, provider, config, apiKey: "sk-test" },
        tenant.keys.admin,
        201,
      );
    await addProvider("HOSTED_D", { baseUrl: "http://127.0.0.1:9/v1" });
    await addProvider("HOSTED_C", { baseUrl: "http://127.0.0.1:9/v1" });
    const result = await validate({
      type: "object",
      properties: { a: { type: ["string", "null"], maxLength: 3 } },
    });
    const warnings = result.warnings as Array<{ rule: string; pointer: string; message: string }>;
    expect(warnings.map((w) => [w.rule, w.pointer])).toEqual([
      ["provider-rewrite", ""],
      ["provider-rewrite", "/properties/a/maxLength"],
    ]);
    expect(warnings[0]?.message).toContain("hosted-d");
    expect(warnings[1]?.message).toContain("cloud-a, hosted-c");
  });

  it("needs jsonSchema and an existing schema", async () => {
    const schema = await createSchema();
    expect((await json("POST", `/v1/schemas/${schema.id}/validate`, {}, undefined, 400)).error.param).toBe(
      "jsonSchema",
    );
    await json("POST", "/v1/schemas/sch_nope/validate", { jsonSchema: invoiceSchema }, undefined, 404);
  });
});
