import { createGroundwork } from "@groundwork/platform";
import { buildTextPng, startOpenAIUpstream, type Upstream } from "@groundwork/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, createTestTenant } from "../../../test/test-support.js";
import { createApp } from "../../app.js";
import { platformConfigFromEnv } from "../../config.js";

let upstream: Upstream;
beforeAll(async () => {
  upstream = await startOpenAIUpstream({ apiKey: "sk-builtin" });
});
afterAll(() => upstream.close());

function convertImage(app: ReturnType<typeof createApp>, key: string) {
  return app.request("/v1/convert/source", {
    method: "POST",
    headers: { ...bearer(key), "content-type": "application/json" },
    body: JSON.stringify({
      sources: [
        {
          kind: "base64",
          content: Buffer.from(buildTextPng("Hello")).toString("base64"),
          filename: "hello.png",
        },
      ],
      options: { pipeline: "vlm" },
    }),
  });
}

describe("vlm pipeline wiring", () => {
  it("sends page images to GROUNDWORK_VLM_MODEL on the built-in upstream", async () => {
    const tenant = await createTestTenant();
    const config = platformConfigFromEnv({
      GROUNDWORK_VLM_MODEL: "vision-large",
      GROUNDWORK_BUILTIN_BASE_URL: upstream.url,
      GROUNDWORK_BUILTIN_API_KEY: "sk-builtin",
    });
    upstream.enqueue({ text: "# Greeting card\n\nHello" });
    const groundwork = createGroundwork({ store: tenant.store, config });
    const response = await convertImage(createApp({ groundwork }), tenant.keys.member);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { documents: Array<{ mdContent: string }> };
    expect(body.documents[0]?.mdContent).toContain("# Greeting card");
    const sent = upstream.requests.at(-1)?.body as {
      model: string;
      messages: Array<{ content: Array<{ type: string; image_url?: { url: string } }> }>;
    };
    expect(sent.model).toBe("vision-large");
    expect(sent.messages[0]?.content.find((part) => part.type === "image_url")?.image_url?.url).toMatch(
      /^data:image\/png;base64,iVBOR/,
    );
    await tenant.store.close();
  });

  it("fails vlm documents with a clear error when no vision model is configured", async () => {
    const tenant = await createTestTenant();
    const groundwork = createGroundwork({ store: tenant.store, config: platformConfigFromEnv({}) });
    const response = await convertImage(createApp({ groundwork }), tenant.keys.member);
    expect(response.status).toBe(422);
    const body = (await response.json()) as { errors: Array<{ code: string; message: string }> };
    expect(body.errors[0]).toEqual(expect.objectContaining({ code: "vlm_unavailable" }));
    // The error says what to set.
    expect(body.errors[0]?.message).toMatch(
      /GROUNDWORK_VLM_MODEL, together with GROUNDWORK_BUILTIN_BASE_URL and GROUNDWORK_BUILTIN_API_KEY/,
    );
    await tenant.store.close();
  });
});
