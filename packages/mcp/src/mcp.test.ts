/**
 * The tool server end to end: the real Groundwork server (built CLI on a temp
 * data dir, built-in models on a scripted upstream) behind the MCP server on
 * both transports, driven by the MCP SDK's own client.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { type StartedServer, startOpenAIUpstream, startServer, type Upstream } from "@groundwork/testkit";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { onPostgres } from "../../platform/test/test-store.js";
import { createTestDatabase } from "../../store-postgres/test/test-database.js";
import { PRODUCTION_CHAT_URL } from "./chat-url.js";
import { loadMcpConfig } from "./config.js";
import { type RunningMcpHttp, startMcpHttp } from "./http-transport.js";
import { toolDefinitions } from "./server.js";

const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url));

let upstream: Upstream;
let groundwork: StartedServer;
let http: RunningMcpHttp;
let client: Client;

interface ToolResult {
  isError?: boolean;
  content: Array<{ type: string; text?: string }>;
  structuredContent?: Record<string, unknown>;
}

async function call(name: string, args: Record<string, unknown> = {}): Promise<ToolResult> {
  return (await client.callTool({ name, arguments: args })) as ToolResult;
}

beforeAll(async () => {
  upstream = await startOpenAIUpstream({ models: ["gw-chat"] });
  groundwork = await startServer({
    env: {
      GROUNDWORK_BUILTIN_BASE_URL: upstream.url,
      GROUNDWORK_BUILTIN_API_KEY: "builtin",
      // On a PostgreSQL run the server keeps its data in a database of the run's server.
      ...(onPostgres()
        ? { GROUNDWORK_DATABASE_URL: await createTestDatabase("mcp", { migrated: true }) }
        : {}),
    },
  });
  http = await startMcpHttp({ baseUrl: groundwork.url, apiKey: groundwork.adminKey ?? "", port: 0 });
  client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${http.url}/mcp`)));
}, 60_000);

afterAll(async () => {
  await client?.close();
  await http?.close();
  await groundwork?.stop();
  await upstream?.close();
});

describe("streamable HTTP transport", () => {
  it("answers GET /health", async () => {
    const response = await fetch(`${http.url}/health`);
    expect(await response.json()).toEqual({ status: "ok" });
  });

  it("lists every svc_ tool with described parameters and annotations", async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(toolDefinitions().map((t) => `svc_${t.name}`));
    for (const required of [
      "svc_chat",
      "svc_create_response",
      "svc_decide_agent_approvals",
      "svc_get_agent_version_policy",
      "svc_list_agent_catalog",
      "svc_list_models",
      "svc_list_schemas",
      "svc_create_extraction",
      "svc_convert_document",
      "svc_search_knowledge_base",
      "svc_upload_file",
      "svc_create_provider",
      "svc_transcribe_audio",
      "svc_get_api_docs",
      "svc_list_my_memory_files",
      "svc_read_my_memory_file",
      "svc_write_my_memory_file",
      "svc_delete_my_memory_file",
      "svc_forget_my_memory",
      "svc_list_member_memory_usage",
      "svc_erase_member_memory",
      "svc_create_conversation",
      "svc_list_conversations",
      "svc_get_conversation_summary",
      "svc_get_conversation",
      "svc_update_conversation",
      "svc_delete_conversation",
      "svc_cancel_conversation_turn",
      "svc_list_conversation_items",
      "svc_record_human_score",
      "svc_list_human_scores",
      "svc_analytics_summary",
      "svc_analytics_time_series",
      "svc_analytics_schemas",
      "svc_analytics_providers",
      "svc_analytics_errors",
      "svc_analytics_quality",
      "svc_analytics_quality_trend",
      "svc_get_billing_tier",
      "svc_list_billing_tiers",
      "svc_get_billing_limits",
      "svc_billing_has_available",
      "svc_billing_check",
      "svc_list_evaluator_types",
      "svc_list_evaluator_templates",
      "svc_get_evaluator_template",
      "svc_create_evaluator_template",
      "svc_update_evaluator_template",
      "svc_delete_evaluator_template",
      "svc_run_evaluator",
      "svc_list_datasets",
      "svc_get_dataset",
      "svc_create_dataset",
      "svc_update_dataset",
      "svc_delete_dataset",
      "svc_get_dataset_versions",
      "svc_get_dataset_version",
      "svc_create_dataset_version",
      "svc_add_dataset_item",
      "svc_add_dataset_items",
      "svc_get_dataset_items",
      "svc_delete_dataset_item",
      "svc_update_dataset_item_expected_output",
      "svc_list_prompts",
      "svc_get_prompt",
      "svc_create_prompt",
      "svc_update_prompt",
      "svc_delete_prompt",
      "svc_resolve_prompt",
      "svc_compile_prompt",
      "svc_test_prompt",
      "svc_list_prompt_versions",
      "svc_get_prompt_version",
      "svc_get_latest_prompt_version",
      "svc_delete_prompt_version",
      "svc_create_prompt_version",
      "svc_activate_prompt_version",
      "svc_list_prompt_labels",
      "svc_create_prompt_label",
      "svc_update_prompt_label",
      "svc_delete_prompt_label",
      "svc_list_skills",
      "svc_get_skill",
      "svc_list_skill_versions",
      "svc_get_skill_version",
      "svc_list_skill_labels",
      "svc_resolve_skill",
      "svc_delete_skill",
      "svc_import_skill",
      "svc_list_plugins",
      "svc_get_plugin",
      "svc_install_plugin",
      "svc_update_plugin",
      "svc_sync_plugin",
      "svc_delete_plugin",
      "svc_get_tracing_settings",
      "svc_update_tracing_settings",
      "svc_list_traces",
      "svc_get_trace",
      "svc_list_trace_sessions",
      "svc_get_trace_session",
      "svc_list_agent_skills",
      "svc_list_agent_tool_catalogs",
      "svc_list_annotation_queues",
      "svc_get_annotation_queue",
      "svc_create_annotation_queue",
      "svc_update_annotation_queue",
      "svc_archive_annotation_queue",
      "svc_find_queue_items_by_subject",
      "svc_list_queue_items",
      "svc_add_queue_items",
      "svc_claim_next_queue_item",
      "svc_get_queue_item",
      "svc_update_queue_item",
    ]) {
      expect(names).toContain(required);
    }
    for (const tool of tools) {
      expect(tool.description?.length ?? 0).toBeGreaterThan(10);
      expect(tool.annotations?.readOnlyHint).toBeTypeOf("boolean");
      expect(tool.annotations?.destructiveHint).toBeTypeOf("boolean");
      const properties = (tool.inputSchema.properties ?? {}) as Record<string, { description?: string }>;
      for (const [name, schema] of Object.entries(properties)) {
        expect(schema.description, `${tool.name}.${name}`).toBeTruthy();
      }
    }
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect(byName.get("svc_delete_schema")?.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
    });
    expect(byName.get("svc_list_models")?.annotations).toMatchObject({
      readOnlyHint: true,
      destructiveHint: false,
    });
  });

  it("calls read tools and returns structured content", async () => {
    const models = await call("svc_list_models");
    expect(models.isError).toBeFalsy();
    const ids = ((models.structuredContent?.data ?? []) as Array<{ id: string }>).map((m) => m.id);
    expect(ids).toContain("hash-embedding-1536");
    expect(ids).toContain("gw-chat");
  });

  it("calls write tools through to the API: schema, version, label resolution", async () => {
    const schema = await call("svc_create_schema", { name: "invoice", description: "invoices" });
    expect(schema.isError).toBeFalsy();
    const schemaId = schema.structuredContent?.id as string;
    const version = await call("svc_create_schema_version", {
      schemaId,
      jsonSchema: { type: "object", properties: { total: { type: "number" } } },
    });
    expect(version.isError).toBeFalsy();
    const resolved = await call("svc_resolve_schema", { schemaId });
    expect(resolved.structuredContent).toMatchObject({ schemaId, versionNumber: 1 });
    const listed = await call("svc_list_schemas", { search: "inv" });
    expect(JSON.stringify(listed.structuredContent)).toContain(schemaId);
  });

  it("runs a chat through the gateway", async () => {
    upstream.enqueue({ text: "pong from the built-in model" });
    const result = await call("svc_chat", {
      model: "gw-chat",
      messages: [{ role: "user", content: "ping" }],
    });
    expect(result.isError).toBeFalsy();
    expect(JSON.stringify(result.structuredContent)).toContain("pong from the built-in model");
  });

  it("returns text and usage for a plain model response", async () => {
    upstream.enqueue({ text: "direct answer", usage: { inputTokens: 3, outputTokens: 2 } });
    const result = await call("svc_create_response", { model: "gw-chat", input: "hello" });
    expect(result.structuredContent).toMatchObject({
      text: "direct answer",
      usage: { input_tokens: 3, output_tokens: 2 },
    });
  });

  it("returns API errors as tool errors carrying the API's message", async () => {
    const missing = await call("svc_get_schema", { schemaId: "sch_missing" });
    expect(missing.isError).toBe(true);
    expect(missing.structuredContent?.error).toMatchObject({ status: 404 });
    expect(missing.content[0]?.text).toMatch(/sch_missing|not found|No schema/i);

    const prefix = await call("svc_chat", { model: "acme/x", messages: [{ role: "user", content: "x" }] });
    expect(prefix.isError).toBe(true);
    expect(prefix.content[0]?.text).toContain("Valid prefixes");

    const mode = await call("svc_create_response", { model: "gw-chat", input: "x", mode: "plan" });
    expect(mode.isError).toBe(true);
    expect(mode.content[0]?.text).toMatch(/only to agent runs/);

    const agent = await call("svc_create_response", { model: "agent/nobody", input: "x" });
    expect(agent.isError).toBe(true);
    expect(agent.structuredContent?.error).toMatchObject({ status: 404 });
  });

  it("keeps the caller's memory through the seven memory tools", async () => {
    const created = await call("svc_write_my_memory_file", {
      command: "create",
      path: "/memories/prefs.md",
      content: "likes tea\n",
    });
    expect(created.structuredContent).toMatchObject({ path: "/memories/prefs.md", lineCount: 1 });
    const sha256 = created.structuredContent?.sha256 as string;
    const edited = await call("svc_write_my_memory_file", {
      command: "str_replace",
      path: "/memories/prefs.md",
      oldStr: "tea",
      newStr: "green tea",
      ifMatch: sha256,
    });
    expect(edited.isError).toBeFalsy();
    const stale = await call("svc_write_my_memory_file", {
      command: "insert",
      path: "/memories/prefs.md",
      insertLine: 0,
      insertText: "x",
      ifMatch: sha256,
    });
    expect(stale.isError).toBe(true);
    expect(stale.structuredContent?.error).toMatchObject({ status: 409 });
    const read = await call("svc_read_my_memory_file", {
      path: "/memories/prefs.md",
      startLine: 1,
      endLine: -1,
    });
    expect(read.structuredContent).toMatchObject({ content: "likes green tea\n", startLine: 1, endLine: 1 });
    const listed = await call("svc_list_my_memory_files", { prefix: "/memories" });
    expect(listed.structuredContent).toMatchObject({ totalElements: 1 });
    const usage = await call("svc_list_member_memory_usage", {});
    const [member] = (usage.structuredContent?.content ?? []) as Array<{
      memberId: string;
      totalBytes: number;
    }>;
    expect(member?.totalBytes).toBe(16);
    expect(await call("svc_delete_my_memory_file", { path: "/memories/prefs.md" })).toMatchObject({
      structuredContent: { ok: true },
    });
    await call("svc_write_my_memory_file", { command: "create", path: "/memories/a", content: "1" });
    expect((await call("svc_forget_my_memory")).structuredContent).toMatchObject({ deletedFiles: 1 });
    expect((await call("svc_erase_member_memory", { memberId: member?.memberId })).structuredContent).toEqual(
      {
        memberId: member?.memberId,
        deletedFiles: 0,
        freedBytes: 0,
      },
    );
    expect((await call("svc_read_my_memory_file", { path: "/memories/../x" })).isError).toBe(true);
  });

  it("imports, reads, resolves and deletes skills through the skill tools", async () => {
    const skillMd = "---\nname: mcp-skill\ndescription: Made over MCP\n---\nBody\n";
    const imported = await call("svc_import_skill", { files: { "SKILL.md": skillMd, "a.txt": "a" } });
    expect(imported.structuredContent).toMatchObject({
      result: "created",
      skill: { qualifiedName: "mcp-skill" },
    });
    const again = await call("svc_import_skill", { files: { "SKILL.md": skillMd, "a.txt": "a" } });
    expect(again.structuredContent).toMatchObject({ result: "unchanged" });
    const { default: JSZip } = await import("jszip");
    const zip = new JSZip();
    zip.file("pkg/SKILL.md", skillMd);
    zip.file("pkg/a.txt", "b");
    const contentBase64 = Buffer.from(await zip.generateAsync({ type: "uint8array" })).toString("base64");
    const zipped = await call("svc_import_skill", { zip: { filename: "pkg.zip", contentBase64 } });
    expect(zipped.structuredContent).toMatchObject({ result: "versioned", version: { versionNumber: 2 } });
    expect((await call("svc_list_skills", { q: "mcp" })).structuredContent).toMatchObject({
      totalElements: 1,
    });
    expect((await call("svc_get_skill", { skill: "mcp-skill" })).structuredContent).toMatchObject({
      latestVersionNumber: 2,
    });
    expect((await call("svc_list_skill_versions", { skill: "mcp-skill" })).structuredContent).toMatchObject({
      totalElements: 2,
    });
    expect(
      (await call("svc_get_skill_version", { skill: "mcp-skill", vid: "1" })).structuredContent,
    ).toMatchObject({ versionNumber: 1, skillMd });
    expect((await call("svc_list_skill_labels", { skill: "mcp-skill" })).structuredContent).toMatchObject({
      items: [{ name: "latest", versionNumber: 2, system: true }],
    });
    expect((await call("svc_resolve_skill", { name: "mcp-skill@1" })).structuredContent).toMatchObject({
      versionNumber: 1,
      label: null,
    });
    const missing = await call("svc_resolve_skill", { name: "nope" });
    expect(missing.isError).toBe(true);
    expect(missing.structuredContent?.error).toMatchObject({ status: 404 });
    const invalid = await call("svc_import_skill", { files: { "README.md": "x" } });
    expect(invalid.isError).toBe(true);
    expect(invalid.structuredContent?.error).toMatchObject({ status: 400 });
    expect((await call("svc_delete_skill", { skill: "mcp-skill" })).structuredContent).toEqual({ ok: true });
    const agents = await call("svc_list_agent_skills", { agentId: "agt_missing" });
    expect(agents.isError).toBe(true);
    const catalogsMissing = await call("svc_list_agent_tool_catalogs", { agentId: "agt_missing" });
    expect(catalogsMissing.structuredContent?.error).toMatchObject({ status: 404 });
  });

  it("installs, reads, updates and deletes plugins through the plugin tools", async () => {
    const { default: JSZip } = await import("jszip");
    const pluginZip = async (version: string, extra: string) => {
      const zip = new JSZip();
      zip.file(".claude-plugin/plugin.json", JSON.stringify({ name: "mcp-plugin", version }));
      zip.file("skills/one/SKILL.md", `---\nname: one\ndescription: One skill\n---\n${extra}\n`);
      return Buffer.from(await zip.generateAsync({ type: "uint8array" })).toString("base64");
    };
    const installed = await call("svc_install_plugin", {
      zip: { filename: "p.zip", contentBase64: await pluginZip("1.0.0", "Body") },
    });
    expect(installed.structuredContent).toMatchObject({
      plugin: { name: "mcp-plugin", version: "1.0.0", source: { type: "upload", url: null } },
      changes: { skills: { created: ["mcp-plugin:one"] } },
    });
    const id = (installed.structuredContent as { plugin: { id: string } }).plugin.id;
    expect((await call("svc_list_plugins")).structuredContent).toMatchObject({ totalElements: 1 });
    expect((await call("svc_get_plugin", { pluginId: id })).structuredContent).toMatchObject({ id });
    const updated = await call("svc_update_plugin", {
      pluginId: id,
      zip: { filename: "p.zip", contentBase64: await pluginZip("1.1.0", "Better") },
    });
    expect(updated.structuredContent).toMatchObject({
      plugin: { version: "1.1.0" },
      changes: { skills: { versioned: ["mcp-plugin:one"] } },
    });
    const sync = await call("svc_sync_plugin", { pluginId: id });
    expect(sync.isError).toBe(true);
    expect(sync.structuredContent?.error).toMatchObject({ status: 409, code: "source_not_syncable" });
    const refused = await call("svc_install_plugin", { sourceUrl: "http://127.0.0.1:1/p.zip" });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent?.error).toMatchObject({ status: 400 });
    expect((await call("svc_delete_plugin", { pluginId: id, force: false })).structuredContent).toEqual({
      ok: true,
    });
    expect((await call("svc_get_plugin", { pluginId: id })).isError).toBe(true);
  });

  it("manages evaluator templates through the six evaluator tools", async () => {
    const types = await call("svc_list_evaluator_types");
    const items = (types.structuredContent?.items ?? []) as Array<{ type: string }>;
    expect(items.map((t) => t.type)).toContain("field_accuracy");
    const created = await call("svc_create_evaluator_template", {
      name: "correctness",
      prompt: "Answer: {{output}}\nReference: {{expectedOutput}}",
      model: "gw-chat",
      scale: { type: "numeric", min: 1, max: 5 },
    });
    expect(created.structuredContent).toMatchObject({ name: "correctness", version: 1 });
    const templateId = created.structuredContent?.id as string;
    const updated = await call("svc_update_evaluator_template", { templateId, description: "is it right?" });
    expect(updated.structuredContent).toMatchObject({ version: 2, description: "is it right?" });
    expect((await call("svc_get_evaluator_template", { templateId })).structuredContent).toMatchObject({
      id: templateId,
    });
    expect((await call("svc_list_evaluator_templates", { size: 5 })).structuredContent).toMatchObject({
      totalElements: 1,
    });
    const bad = await call("svc_create_evaluator_template", {
      name: "bad",
      prompt: "x",
      model: "gw-chat",
      scale: { type: "numeric", min: 5, max: 1 },
    });
    expect(bad.isError).toBe(true);
    expect(bad.structuredContent?.error).toMatchObject({ status: 400, param: "scale.max" });
    expect(await call("svc_delete_evaluator_template", { templateId })).toMatchObject({
      structuredContent: { ok: true },
    });
    expect((await call("svc_get_evaluator_template", { templateId })).isError).toBe(true);

    // A dataset of extraction cases scored field by field, the scores recorded on its items.
    const dataset = (await call("svc_create_dataset", { name: "invoices" })).structuredContent as {
      id: string;
    };
    const added = await call("svc_add_dataset_items", {
      datasetId: dataset.id,
      items: [
        { input: "Invoice INV-1, total 10 EUR", expectedOutput: { number: "INV-1", total: 10 } },
        { input: "Invoice INV-2, total 20 EUR", expectedOutput: { number: "INV-2", total: 20 } },
      ],
    });
    const [first, second] = (added.structuredContent as { items: Array<{ id: string }> }).items;
    const report = await call("svc_run_evaluator", {
      evaluator: { type: "field_accuracy" },
      datasetId: dataset.id,
      outputs: [
        { itemId: first?.id, output: { number: "INV-1", total: 10 } },
        { itemId: second?.id, output: '{"number":"INV-2","total":21}' },
      ],
    });
    expect(report.structuredContent).toMatchObject({
      scoreName: "field_accuracy",
      results: [
        { score: 1, passed: true },
        { score: 0.5, passed: true },
      ],
      summary: { scored: 2, meanScore: 0.75 },
    });
    const scores = await call("svc_list_human_scores", { subjectId: second?.id, source: "EVAL" });
    expect(scores.structuredContent).toMatchObject({ totalElements: 1, content: [{ value: 0.5 }] });
  });

  it("manages conversations through the eight conversation tools", async () => {
    const created = await call("svc_create_conversation", {
      title: "Support",
      metadata: { ticket: "7" },
      items: [{ type: "message", role: "user", content: "hello" }],
    });
    expect(created.structuredContent).toMatchObject({
      object: "conversation",
      title: "Support",
      mode: "ask",
    });
    const conversationId = created.structuredContent?.id as string;
    const listed = await call("svc_list_conversations", { status: "idle" });
    expect(listed.structuredContent?.content).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: conversationId })]),
    );
    expect((await call("svc_get_conversation", { conversationId })).structuredContent).toMatchObject({
      id: conversationId,
      status: "idle",
    });
    const updated = await call("svc_update_conversation", { conversationId, mode: "plan", title: null });
    expect(updated.structuredContent).toMatchObject({ mode: "plan", title: null, metadata: { ticket: "7" } });
    const items = await call("svc_list_conversation_items", {
      conversationId,
      order: "asc",
      type: "message",
    });
    expect(items.structuredContent).toMatchObject({
      totalElements: 1,
      content: [{ type: "message", role: "user", content: [{ type: "input_text", text: "hello" }] }],
    });
    expect((await call("svc_get_conversation_summary", { conversationId })).structuredContent).toMatchObject({
      conversationId,
      itemCount: 1,
      turnCount: 0,
      status: "idle",
    });
    const cancel = await call("svc_cancel_conversation_turn", { conversationId, reason: "stop" });
    expect(cancel.isError).toBe(true);
    expect(cancel.structuredContent?.error).toMatchObject({ status: 409, code: "no_active_turn" });
    expect(await call("svc_delete_conversation", { conversationId })).toMatchObject({
      structuredContent: { ok: true },
    });
    const gone = await call("svc_get_conversation", { conversationId });
    expect(gone.structuredContent?.error).toMatchObject({ status: 404 });
  });

  it("reads analytics through the seven analytics tools", async () => {
    await call("svc_chat", { model: "gw-chat", messages: [{ role: "user", content: "hi" }] });
    const summary = await call("svc_analytics_summary", {});
    expect(summary.structuredContent).toMatchObject({ errors: 0, latencyP50Ms: expect.any(Number) });
    expect(summary.structuredContent?.requests).toBeGreaterThanOrEqual(1);
    const series = await call("svc_analytics_time_series", { bucket: "day" });
    expect(series.structuredContent).toMatchObject({ bucket: "day", points: expect.any(Array) });
    const providers = await call("svc_analytics_providers", { byok: false });
    expect(providers.structuredContent?.providers).toEqual(
      expect.arrayContaining([expect.objectContaining({ provider: "builtin" })]),
    );
    for (const name of ["svc_analytics_errors", "svc_analytics_schemas", "svc_analytics_quality"]) {
      expect((await call(name, {})).structuredContent?.from, name).toEqual(expect.any(String));
    }
    const trend = await call("svc_analytics_quality_trend", { scoreName: "stars" });
    expect(trend.structuredContent).toMatchObject({ points: expect.any(Array) });
    const refused = await call("svc_analytics_summary", { from: "yesterday" });
    expect(refused.structuredContent?.error).toMatchObject({ status: 400, param: "from" });
  });

  it("records and lists scores through the two score tools", async () => {
    const conversation = await call("svc_create_conversation", { title: "Scored" });
    const conversationId = conversation.structuredContent?.id as string;
    const recorded = await call("svc_record_human_score", {
      subjectType: "conversation",
      subjectId: conversationId,
      name: "resolution",
      dataType: "CATEGORICAL",
      value: "solved",
      comment: "first reply",
    });
    expect(recorded.structuredContent).toMatchObject({
      id: expect.stringMatching(/^scr_/),
      subjectId: conversationId,
      value: "solved",
      source: "HUMAN",
    });
    const listed = await call("svc_list_human_scores", { subjectId: conversationId, name: "resolution" });
    expect(listed.structuredContent).toMatchObject({
      totalElements: 1,
      content: [{ id: recorded.structuredContent?.id }],
    });
    const mismatch = await call("svc_record_human_score", {
      subjectType: "conversation",
      subjectId: conversationId,
      name: "resolution",
      dataType: "NUMERIC",
      value: "solved",
    });
    expect(mismatch.structuredContent?.error).toMatchObject({ status: 400, param: "value" });
    const missing = await call("svc_record_human_score", {
      subjectType: "response",
      subjectId: "resp_missing",
      name: "x",
      dataType: "BOOLEAN",
      value: true,
    });
    expect(missing.structuredContent?.error).toMatchObject({ status: 404, param: "subjectId" });
    const badTime = await call("svc_list_human_scores", { from: "yesterday" });
    expect(badTime.structuredContent?.error).toMatchObject({ status: 400, param: "from" });
  });

  it("reports the tier, tiers, limits, availability and checks through the five billing tools", async () => {
    // The bootstrap organization is on the enterprise plan: everything unlimited.
    const tier = await call("svc_get_billing_tier");
    expect(tier.structuredContent).toMatchObject({
      plan: "enterprise",
      name: "Enterprise",
      limits: { pages: null },
    });
    const tiers = await call("svc_list_billing_tiers");
    const items = (tiers.structuredContent?.items ?? []) as Array<{ plan: string }>;
    expect(items.map((t) => t.plan)).toEqual(["free", "team", "business", "enterprise"]);
    const limits = await call("svc_get_billing_limits");
    expect(limits.structuredContent).toMatchObject({ plan: "enterprise" });
    expect(limits.structuredContent?.limits).toHaveLength(6);
    const available = await call("svc_billing_has_available", { resource: "byok" });
    expect(available.structuredContent).toEqual({ resource: "byok", available: true });
    const checked = await call("svc_billing_check", { resource: "pages", amount: 5 });
    expect(checked.structuredContent).toMatchObject({ allowed: true, reason: null, remaining: null });
  });

  it("works an annotation queue through the eleven annotation-queue tools", async () => {
    const conversation = await call("svc_create_conversation", { title: "Queued" });
    const subjectId = conversation.structuredContent?.id as string;
    const created = await call("svc_create_annotation_queue", {
      name: "mcp-review",
      scoreConfigs: [{ name: "quality", dataType: "NUMERIC", min: 1, max: 5 }],
    });
    expect(created.structuredContent).toMatchObject({
      status: "ACTIVE",
      counts: { pending: 0, completed: 0 },
    });
    const queueId = created.structuredContent?.id as string;
    const updated = await call("svc_update_annotation_queue", { queueId, description: "weekly" });
    expect(updated.structuredContent).toMatchObject({ description: "weekly" });
    const added = await call("svc_add_queue_items", {
      queueId,
      items: [{ subjectType: "conversation", subjectId }],
    });
    expect(added.structuredContent).toMatchObject({ skipped: 0, added: [{ subjectId, status: "PENDING" }] });
    const claimed = await call("svc_claim_next_queue_item", { queueId });
    const itemId = claimed.structuredContent?.id as string;
    expect(claimed.structuredContent).toMatchObject({
      subjectId,
      lockedByKeyId: expect.stringMatching(/^key_/),
    });
    const outOfRange = await call("svc_update_queue_item", {
      queueId,
      itemId,
      scores: [{ name: "quality", value: 9 }],
    });
    expect(outOfRange.structuredContent?.error).toMatchObject({ status: 400, param: "scores[0].value" });
    const done = await call("svc_update_queue_item", {
      queueId,
      itemId,
      status: "COMPLETED",
      scores: [{ name: "quality", value: 4 }],
    });
    expect(done.structuredContent).toMatchObject({ status: "COMPLETED", scoreIds: [expect.any(String)] });
    expect((await call("svc_claim_next_queue_item", { queueId })).structuredContent).toEqual({ ok: true });
    expect((await call("svc_get_queue_item", { queueId, itemId })).structuredContent).toMatchObject({
      id: itemId,
    });
    const listed = await call("svc_list_queue_items", { queueId, status: "COMPLETED" });
    expect(listed.structuredContent).toMatchObject({ totalElements: 1 });
    const found = await call("svc_find_queue_items_by_subject", { subjectType: "conversation", subjectId });
    expect(found.structuredContent).toMatchObject({ totalElements: 1, content: [{ id: itemId }] });
    expect((await call("svc_get_annotation_queue", { queueId })).structuredContent).toMatchObject({
      counts: { pending: 0, completed: 1 },
    });
    const archived = await call("svc_archive_annotation_queue", { queueId });
    expect(archived.structuredContent).toMatchObject({ status: "ARCHIVED" });
    const queues = await call("svc_list_annotation_queues", { status: "ARCHIVED" });
    expect(queues.structuredContent).toMatchObject({ totalElements: 1, content: [{ id: queueId }] });
  });

  it("reads and updates tracing settings and reads traces and sessions through the six tracing tools", async () => {
    const updated = await call("svc_update_tracing_settings", { samplingRate: 0.5, retentionDays: 14 });
    expect(updated.structuredContent).toMatchObject({ samplingRate: 0.5, retentionDays: 14, export: null });
    const read = await call("svc_get_tracing_settings");
    expect(read.structuredContent).toMatchObject({ samplingRate: 0.5, captureContent: false });
    const bad = await call("svc_update_tracing_settings", { export: { endpoint: "not a url" } });
    expect(bad.structuredContent?.error).toMatchObject({ status: 400, param: "export.endpoint" });
    await call("svc_update_tracing_settings", { samplingRate: 1 });
    const traces = await call("svc_list_traces", { size: 5 });
    expect(traces.structuredContent).toMatchObject({ page: 0, size: 5 });
    const missing = await call("svc_get_trace", { traceId: "trc_missing" });
    expect(missing.structuredContent?.error).toMatchObject({ status: 404 });
    const sessions = await call("svc_list_trace_sessions", {});
    expect(sessions.structuredContent).toMatchObject({ page: 0 });
    const noSession = await call("svc_get_trace_session", { sessionId: "conv_missing" });
    expect(noSession.structuredContent?.error).toMatchObject({ status: 404 });
  });

  it("compares two model variants on a dataset and reads which items regressed through the experiment tools", async () => {
    // good-1 answers every item right; bad-1 only the first.
    upstream.handler = (request) => {
      const body = request.body as { model?: string; messages?: Array<{ content: unknown }> };
      const question = String(body.messages?.at(-1)?.content ?? "");
      const right = body.model === "good-1" || question === "q0";
      return { text: right ? question.replace("q", "a") : "wrong" };
    };
    try {
      const dataset = (await call("svc_create_dataset", { name: "experiment-qa" })).structuredContent as {
        id: string;
      };
      await call("svc_add_dataset_items", {
        datasetId: dataset.id,
        items: [
          { input: "q0", expectedOutput: "a0" },
          { input: "q1", expectedOutput: "a1" },
        ],
      });
      await call("svc_create_dataset_version", { datasetId: dataset.id });
      const experiment = (
        await call("svc_create_experiment", {
          name: "mcp-models",
          datasetId: dataset.id,
          evaluators: [{ type: "exact_match" }],
        })
      ).structuredContent as { id: string };
      const experimentId = experiment.id;
      await call("svc_add_variant", { experimentId, name: "good", kind: "model", model: "good-1" });
      await call("svc_add_variant", { experimentId, name: "bad", kind: "model", model: "bad-1" });
      const started = await call("svc_run_experiment", { experimentId });
      const runs = (started.structuredContent as { runs: Array<{ id: string; variantName: string }> }).runs;
      const runOf = (name: string) => runs.find((run) => run.variantName === name)?.id ?? "";
      for (const run of runs) {
        for (let tries = 0; ; tries++) {
          const read = await call("svc_get_run", { experimentId, runId: run.id });
          if ((read.structuredContent as { status: string }).status === "completed") break;
          if (tries > 200) throw new Error(`run ${run.id} did not complete`);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
      await call("svc_set_baseline", { experimentId, runId: runOf("good") });
      const regression = await call("svc_get_run_regression", { experimentId, runId: runOf("bad") });
      expect(regression.structuredContent).toMatchObject({
        baselineRunId: runOf("good"),
        summary: {
          regressed: 1,
          unchanged: 1,
          improved: 0,
          missing: 0,
          byEvaluator: { exact_match: { regressed: 1 } },
        },
      });
      const regressed = (
        regression.structuredContent as { items: Array<{ verdict: string; datasetItemId: string }> }
      ).items.filter((item) => item.verdict === "regressed");
      expect(regressed).toHaveLength(1);
      const results = await call("svc_get_run_results", { experimentId, runId: runOf("bad") });
      expect(results.structuredContent).toMatchObject({
        totalElements: 2,
        content: [
          { input: "q0", output: "a0", scores: [{ name: "exact_match", value: 1 }] },
          { input: "q1", output: "wrong", scores: [{ name: "exact_match", value: 0 }] },
        ],
      });
      const comparison = await call("svc_get_experiment_comparison", { experimentId });
      expect(comparison.structuredContent).toMatchObject({ baselineRunId: runOf("good") });
    } finally {
      upstream.handler = undefined;
    }
  });

  it("manages datasets, items and versions through the thirteen dataset tools", async () => {
    const created = await call("svc_create_dataset", { name: "mcp-qa", metadata: { team: "ml" } });
    expect(created.structuredContent).toMatchObject({ object: "dataset", name: "mcp-qa", itemCount: 0 });
    const datasetId = created.structuredContent?.id as string;
    const one = await call("svc_add_dataset_item", { datasetId, input: { q: "2+2?" }, expectedOutput: "4" });
    expect(one.structuredContent).toMatchObject({ input: { q: "2+2?" }, expectedOutput: "4", metadata: {} });
    const itemId = one.structuredContent?.id as string;
    const batch = await call("svc_add_dataset_items", { datasetId, items: [{ input: "b" }, { input: "c" }] });
    expect(batch.structuredContent).toMatchObject({ count: 2 });
    const bad = await call("svc_add_dataset_items", { datasetId, items: [{ input: "d" }, { input: null }] });
    expect(bad.structuredContent?.error).toMatchObject({ status: 400, param: "items[1].input" });
    const version = await call("svc_create_dataset_version", { datasetId, description: "v1" });
    expect(version.structuredContent).toMatchObject({ versionNumber: 1, itemCount: 3 });
    const cleared = await call("svc_update_dataset_item_expected_output", {
      datasetId,
      itemId,
      expectedOutput: null,
    });
    expect(cleared.structuredContent).toMatchObject({ id: itemId, expectedOutput: null });
    expect(await call("svc_delete_dataset_item", { datasetId, itemId })).toMatchObject({
      structuredContent: { ok: true },
    });
    const frozen = await call("svc_get_dataset_items", { datasetId, version: 1 });
    expect(frozen.structuredContent).toMatchObject({
      totalElements: 3,
      content: [{ id: itemId, expectedOutput: "4" }, { input: "b" }, { input: "c" }],
    });
    expect((await call("svc_get_dataset_items", { datasetId })).structuredContent).toMatchObject({
      totalElements: 2,
    });
    expect((await call("svc_get_dataset_version", { datasetId, vid: 1 })).structuredContent).toMatchObject({
      id: version.structuredContent?.id,
    });
    expect((await call("svc_get_dataset_versions", { datasetId })).structuredContent).toMatchObject({
      totalElements: 1,
    });
    expect(
      (await call("svc_update_dataset", { datasetId, description: "golden" })).structuredContent,
    ).toMatchObject({ description: "golden" });
    expect((await call("svc_list_datasets", { name: "mcp" })).structuredContent).toMatchObject({
      totalElements: 1,
    });
    expect((await call("svc_get_dataset", { datasetId })).structuredContent).toMatchObject({
      latestVersionNumber: 1,
      itemCount: 2,
    });
    expect(await call("svc_delete_dataset", { datasetId })).toMatchObject({
      structuredContent: { ok: true },
    });
    expect((await call("svc_get_dataset", { datasetId })).structuredContent?.error).toMatchObject({
      status: 404,
    });
  });

  it("manages, compiles and tests prompts through the prompt tools", async () => {
    const created = await call("svc_create_prompt", {
      name: "mcp/greeting",
      type: "chat",
      prompt: [
        { role: "system", content: "You are {{persona}}." },
        { role: "user", content: "{{question}}" },
      ],
      config: { model: "gw-chat", temperature: 0.1 },
      labels: ["production"],
    });
    expect(created.isError).toBeFalsy();
    expect(created.structuredContent).toMatchObject({
      name: "mcp/greeting",
      type: "chat",
      latestVersionNumber: 1,
    });
    const promptId = "mcp/greeting";
    const version = await call("svc_create_prompt_version", {
      promptId,
      prompt: [{ role: "user", content: "Briefly: {{question}}" }],
      changeDescription: "shorter",
    });
    expect(version.structuredContent).toMatchObject({ versionNumber: 2, labels: ["latest"] });
    expect((await call("svc_resolve_prompt", { promptId })).structuredContent).toMatchObject({
      versionNumber: 1,
      label: "production",
      variables: ["persona", "question"],
    });
    const compiled = await call("svc_compile_prompt", {
      promptId,
      version: 2,
      variables: { question: "Why?" },
    });
    expect(compiled.structuredContent).toMatchObject({
      compiled: [{ role: "user", content: "Briefly: Why?" }],
    });
    const missing = await call("svc_compile_prompt", { promptId });
    expect(missing.isError).toBe(true);
    expect(missing.structuredContent?.error).toMatchObject({ status: 400, code: "missing_variables" });
    upstream.enqueue({ text: "Because.", usage: { inputTokens: 5, outputTokens: 2 } });
    const tested = await call("svc_test_prompt", {
      promptId,
      variables: { persona: "kind", question: "Why?" },
    });
    expect(tested.structuredContent).toMatchObject({
      versionNumber: 1,
      model: "gw-chat",
      output: "Because.",
      usage: { promptTokens: 5, completionTokens: 2, totalTokens: 7 },
    });
    expect(
      (await call("svc_activate_prompt_version", { promptId, versionId: 2 })).structuredContent,
    ).toMatchObject({
      labels: ["latest", "production"],
    });
    const labels = await call("svc_list_prompt_labels", { promptId });
    expect(labels.structuredContent).toMatchObject({
      items: [
        { name: "latest", system: true },
        { name: "production", versionNumber: 2 },
      ],
    });
    expect(await call("svc_delete_prompt", { promptId })).toMatchObject({ structuredContent: { ok: true } });
    const gone = await call("svc_get_prompt", { promptId });
    expect(gone.structuredContent?.error).toMatchObject({ status: 404 });
  });

  it("serves the project's own API docs", async () => {
    const sections = await call("svc_list_api_doc_sections");
    const ids = ((sections.structuredContent?.sections ?? []) as Array<{ id: string }>).map((s) => s.id);
    expect(ids).toEqual(expect.arrayContaining(["gateway", "decisions", "architecture"]));
    const gateway = await call("svc_get_api_docs", { section: "gateway", heading: "Endpoints" });
    expect(gateway.structuredContent?.markdown).toMatch(/^## Endpoints/);
    expect((await call("svc_get_api_docs", { section: "nope" })).isError).toBe(true);
  });
});

describe("agent runs through the tool server", () => {
  const support = {
    name: "support",
    models: ["gw-chat"],
    instructions: "You are the support agent.",
    tools: [
      {
        name: "refund",
        description: "Refund an order",
        parameters: { type: "object", properties: { order: { type: "string" } } },
        annotations: { readOnlyHint: false, destructiveHint: false },
      },
    ],
    hitlPolicy: { version: 1, default: "allow", classes: { write: "approve" } },
  };

  it("pauses for approval, relays the approved client tool, and completes", async () => {
    const created = await call("svc_create_agent", { definition: support, apply: true });
    expect(created.isError).toBeFalsy();
    upstream.enqueue(
      { toolCalls: [{ id: "call_R", name: "refund", arguments: { order: "A1" } }] },
      { text: "The refund for A1 is done." },
    );

    const paused = await call("svc_create_response", { model: "agent/support", input: "refund order A1" });
    expect(paused.isError).toBeFalsy();
    expect(paused.structuredContent).toMatchObject({ status: "requires_approval", model: "gw-chat" });
    const approvals = paused.structuredContent?.pendingApprovals as Array<{ id: string; tool: string }>;
    expect(approvals.map((a) => a.tool)).toEqual(["refund"]);

    const policy = await call("svc_get_agent_version_policy", {
      agentId: (created.structuredContent?.agent as { id: string } | undefined)?.id,
      versionId: (created.structuredContent?.version as { id: string } | undefined)?.id,
      tool: "refund",
    });
    expect(JSON.stringify(policy.structuredContent)).toContain("PAUSE_APPROVAL");
    const installed = await call("svc_get_agent_version_policy", {
      agentId: (created.structuredContent?.agent as { id: string } | undefined)?.id,
      versionId: (created.structuredContent?.version as { id: string } | undefined)?.id,
      installationId: "plg_unknown",
    });
    expect(installed.isError).toBe(true);
    expect(installed.structuredContent).toMatchObject({ error: { status: 404, param: "installationId" } });

    const approved = await call("svc_decide_agent_approvals", {
      agent: "agent/support",
      responseId: paused.structuredContent?.responseId,
      decisions: [{ approvalId: approvals[0]?.id, decision: "approve" }],
    });
    expect(approved.isError).toBeFalsy();
    expect(approved.structuredContent).toMatchObject({ status: "requires_tool_output" });
    const pending = approved.structuredContent?.pendingToolCalls as Array<{ callId: string; tool: string }>;
    expect(pending.map((p) => p.tool)).toEqual(["refund"]);

    const done = await call("svc_decide_agent_approvals", {
      agent: "agent/support",
      responseId: approved.structuredContent?.responseId,
      outputs: [{ callId: pending[0]?.callId, output: "refunded 10 EUR" }],
    });
    expect(done.structuredContent).toMatchObject({ status: "completed", text: "The refund for A1 is done." });
    const lastMessages = JSON.stringify(upstream.requests.at(-1)?.body);
    expect(lastMessages).toContain("refunded 10 EUR");
  });

  it("refuses a decision that misses a pending approval, with the API's message", async () => {
    upstream.enqueue({ toolCalls: [{ id: "call_S", name: "refund", arguments: { order: "B2" } }] });
    const paused = await call("svc_create_response", { model: "agent/support", input: "refund B2" });
    const missing = await call("svc_decide_agent_approvals", {
      agent: "agent/support",
      responseId: paused.structuredContent?.responseId,
      decisions: [],
    });
    expect(missing.isError).toBe(true);
    expect(missing.structuredContent?.error).toMatchObject({ status: 400 });
  });
});

describe("stdio transport", () => {
  it("serves the same tools to a client that launches it", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [cli],
      env: {
        AI_SERVICE_API_KEY: groundwork.adminKey ?? "",
        AI_SERVICE_BASE_URL: groundwork.url,
        PATH: process.env.PATH ?? "",
      },
    });
    const stdio = new Client({ name: "stdio-test", version: "1.0.0" });
    await stdio.connect(transport);
    try {
      const { tools } = await stdio.listTools();
      expect(tools.length).toBe(toolDefinitions().length);
      const result = (await stdio.callTool({ name: "svc_list_providers", arguments: {} })) as ToolResult;
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ content: [], totalElements: 0 });
    } finally {
      await stdio.close();
    }
  });

  it("refuses to start without AI_SERVICE_API_KEY, saying so", () => {
    const run = spawnSync(process.execPath, [cli], {
      env: { PATH: process.env.PATH ?? "" },
      encoding: "utf8",
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/AI_SERVICE_API_KEY is required/);
  });
});

describe("configuration", () => {
  it("reads the spec's variables with their defaults", () => {
    expect(loadMcpConfig({ AI_SERVICE_API_KEY: "k" })).toEqual({
      apiKey: "k",
      baseUrl: "http://127.0.0.1:8080",
      chatUrl: "http://127.0.0.1:8080",
      transport: "stdio",
      httpPort: 3100,
    });
    expect(
      loadMcpConfig({ AI_SERVICE_API_KEY: "k", AI_SERVICE_BASE_URL: "https://api.example.com/v1/" }),
    ).toMatchObject({
      baseUrl: "https://api.example.com",
      // An unknown base: the production chat origin (spec document 3), not a guess from its host.
      chatUrl: PRODUCTION_CHAT_URL,
    });
    expect(() => loadMcpConfig({ AI_SERVICE_API_KEY: "k", MCP_TRANSPORT: "sse" })).toThrow(/stdio or http/);
    expect(() => loadMcpConfig({ AI_SERVICE_API_KEY: "k", MCP_HTTP_PORT: "x" })).toThrow(/MCP_HTTP_PORT/);
  });
});
