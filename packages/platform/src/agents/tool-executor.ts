/**
 * Server-side tools of agent runs: `file_search` (fused search over the tool's knowledge
 * bases, numbered passages that become citations), `platform.extraction` (a synchronous
 * extraction with one of the configured schemas), `platform.document_convert` (a URL or
 * base64 document to Markdown), `platform.todo` (a list kept in the run state) and
 * `function` tools (an HTTP POST to the endpoint, HMAC-signed with the tool's secret).
 */
import { createHmac } from "node:crypto";
import type {
  ApprovalPreparation,
  Citation,
  ToolCallInput,
  ToolDefinition,
  ToolExecutor,
  ToolResult,
} from "@groundwork/agents";
import type { Principal } from "@groundwork/core";
import type { KnowledgeBaseRecord } from "@groundwork/kb";
import type { ConversionService } from "../conversion/conversion-service.js";
import type { ExtractionService } from "../extraction/extraction-service.js";
import type { KnowledgeService } from "../knowledge/knowledge-service.js";
import {
  DEFAULT_PRIVATE_NETWORK_SETTING,
  guardedFetch,
  privateAddressOf,
  refusedAddressOf,
} from "../network/guarded-network.js";
import type { PlatformToolRunner } from "../platform-tools/platform-tool-runner.js";
import type { SkillRunTools } from "../skills/skill-run-tools.js";
import type { PlatformStore } from "../store-port.js";

export const SIGNATURE_HEADER = "x-groundwork-signature";
export const DEFAULT_FUNCTION_TIMEOUT_MS = 30_000;
const MAX_FUNCTION_OUTPUT_BYTES = 64 * 1024;
const MAX_FUNCTION_REDIRECTS = 5;
const FILE_SEARCH_TOP_K = 8;

/** The platform services the server-side tools run on. */
export interface ToolServices {
  conversion: ConversionService;
  extraction: ExtractionService;
  knowledge: KnowledgeService;
  /** The skill tools (`platform_skill`, `platform_skill_read`, `platform_skills_apply`) and run-time resolution. */
  skillTools?: SkillRunTools;
  /** The built-in platform tools of PLATFORM.md §6 (bash, deliver, view_image, web_search). */
  platformTools?: PlatformToolRunner;
}

export interface ToolExecutorOptions {
  allowPrivateNetwork: boolean;
  allowPrivateNetworkSetting?: string;
  functionTimeoutMs: number;
  /** Replaces the guarded transport (tests); by default connections refuse private addresses. */
  fetch?: typeof fetch;
  now: () => number;
}

function parseArguments(raw: string): Record<string, unknown> {
  if (raw.trim() === "") return {};
  const value = JSON.parse(raw) as unknown;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new Error("the arguments must be a JSON object");
  }
  return value as Record<string, unknown>;
}

function stringArg(args: Record<string, unknown>, name: string): string {
  const value = args[name];
  if (typeof value !== "string" || value === "")
    throw new Error(`the argument "${name}" must be a non-empty string`);
  return value;
}

/**
 * `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">` with the tool's secret, the
 * scheme webhook receivers already verify (the timestamp bounds replays).
 */
export function signBody(secret: string, body: string, unixSeconds: number): string {
  const mac = createHmac("sha256", secret).update(`${unixSeconds}.${body}`).digest("hex");
  return `t=${unixSeconds},v1=${mac}`;
}

/** Refuses endpoints on loopback, private or link-local addresses unless allowed (DESIGN.md). */
export async function checkEndpoint(
  endpoint: string | URL,
  allowPrivateNetwork: boolean,
  setting: string = DEFAULT_PRIVATE_NETWORK_SETTING,
): Promise<URL> {
  const url = new URL(endpoint);
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new Error(`only http and https endpoints can be called, not ${url.protocol}`);
  }
  if (allowPrivateNetwork) return url;
  const refused = await privateAddressOf(url.hostname);
  if (refused !== undefined) {
    throw new Error(
      `${url.hostname} resolves to ${refused}, a loopback, private or link-local address; function endpoints there are refused unless ${setting}`,
    );
  }
  return url;
}

export class ServerToolExecutor implements ToolExecutor {
  constructor(
    private readonly store: PlatformStore,
    private readonly services: ToolServices,
    private readonly principal: Principal,
    private readonly options: ToolExecutorOptions,
  ) {}

  async execute(call: ToolCallInput): Promise<ToolResult> {
    const definition = call.tool.definition;
    const skill = await this.services.skillTools?.execute(this.principal, call);
    if (skill !== undefined && skill !== null) return skill;
    try {
      const platform = await this.services.platformTools?.execute(this.principal, call);
      if (platform !== undefined && platform !== null) return platform;
      const args = parseArguments(call.arguments);
      switch (definition.type) {
        case "file_search":
          return await this.fileSearch(
            (definition as Extract<ToolDefinition, { type: "file_search" }>).config.knowledgeBaseIds,
            args,
            call,
          );
        case "platform.extraction":
          return await this.extraction(
            definition as Extract<ToolDefinition, { type: "platform.extraction" }>,
            args,
            call,
          );
        case "platform.document_convert":
          return await this.convert(args, call);
        case "platform.todo":
          return this.todo(args, call);
        case "function":
          return await this.callFunction(
            definition as Extract<ToolDefinition, { type: "function" }>,
            args,
            call,
          );
        default:
          return { output: `The tool "${call.tool.name}" does not run on the server`, failed: true };
      }
    } catch (error) {
      return {
        output: `The tool failed: ${error instanceof Error ? error.message : String(error)}`,
        failed: true,
      };
    }
  }

  async prepareApproval(call: ToolCallInput): Promise<ApprovalPreparation> {
    return (await this.services.skillTools?.prepareApproval(this.principal, call)) ?? null;
  }

  private async fileSearch(
    ids: string[],
    args: Record<string, unknown>,
    call: ToolCallInput,
  ): Promise<ToolResult> {
    const query = stringArg(args, "query");
    const kbs: KnowledgeBaseRecord[] = [];
    const missing: string[] = [];
    for (const id of ids) {
      const kb = await this.store.knowledgeBases.get(this.principal.organizationId, id);
      if (kb === null || (kb as { deletedAt?: number | null }).deletedAt != null) missing.push(id);
      else kbs.push(kb);
    }
    if (kbs.length === 0) {
      return { output: `No knowledge base of this tool is available (${missing.join(", ")})`, failed: true };
    }
    const result = await this.services.knowledge.search(this.principal, kbs, {
      query,
      topK: FILE_SEARCH_TOP_K,
      ...(call.signal === undefined ? {} : { signal: call.signal }),
    });
    if (result.hits.length === 0) return { output: `No passages match "${query}".`, citations: [] };
    const first = call.state.citations.length + 1;
    const citations: Citation[] = result.hits.map((hit, index) => ({
      marker: first + index,
      knowledgeBaseId: hit.knowledgeBaseId,
      documentId: hit.documentId,
      documentVersionId: hit.documentVersionId,
      documentName: hit.documentName,
      chunkId: hit.chunkId,
      ...(hit.pageStart === undefined ? {} : { pageStart: hit.pageStart }),
      ...(hit.pageEnd === undefined ? {} : { pageEnd: hit.pageEnd }),
    }));
    const passages = result.hits.map((hit, index) => {
      const page = hit.pageStart === undefined ? "" : ` (page ${hit.pageStart})`;
      return `[${first + index}] ${hit.documentName}${page}\n${hit.content}`;
    });
    const note = missing.length === 0 ? "" : `\n\n(Unavailable knowledge bases: ${missing.join(", ")})`;
    return {
      output: `Passages for "${query}" — cite them as [n]:\n\n${passages.join("\n\n")}${note}`,
      citations,
    };
  }

  private async extraction(
    definition: Extract<ToolDefinition, { type: "platform.extraction" }>,
    args: Record<string, unknown>,
    call: ToolCallInput,
  ): Promise<ToolResult> {
    const schemaId = stringArg(args, "schemaId");
    const text = stringArg(args, "text");
    if (!definition.config.schemaIds.includes(schemaId)) {
      return {
        output: `Schema ${schemaId} is not configured for this tool; use one of ${definition.config.schemaIds.join(", ")}`,
        failed: true,
      };
    }
    const service = this.services.extraction;
    const { schema, version } = await service.resolveVersion(
      this.principal.organizationId,
      schemaId,
      undefined,
    );
    const { strategy, inputTokens } = service.strategyFor(this.principal, text);
    if (strategy === "ASYNC") {
      return {
        output: "The text is too large for an extraction inside an agent run; send a shorter text",
        failed: true,
      };
    }
    const record = await service.runNow(
      this.principal,
      { schema, version, model: definition.config.model ?? call.state.model, inputText: text, images: [] },
      strategy,
      inputTokens,
      call.signal,
    );
    if (record.status !== "COMPLETED") {
      return {
        output: `The extraction ${record.id} failed: ${record.errorMessage ?? "unknown error"}`,
        failed: true,
      };
    }
    const structured =
      (record.result as { structuredOutput?: unknown } | null)?.structuredOutput ?? record.result;
    return { output: JSON.stringify({ extractionId: record.id, data: structured }) };
  }

  private async convert(args: Record<string, unknown>, call: ToolCallInput): Promise<ToolResult> {
    const url = typeof args.url === "string" && args.url !== "" ? args.url : undefined;
    const content = typeof args.content === "string" && args.content !== "" ? args.content : undefined;
    if ((url === undefined) === (content === undefined)) {
      throw new Error("give exactly one of url or content (base64)");
    }
    const input =
      url !== undefined
        ? { kind: "http" as const, url, headers: null }
        : {
            kind: "bytes" as const,
            filename: typeof args.filename === "string" ? args.filename : "document",
            mimeType: null,
            content: new Uint8Array(Buffer.from(content as string, "base64")),
          };
    const result = await this.services.conversion.convert(
      [input],
      { options: { outputFormats: ["MD"] } },
      call.signal,
      this.principal.organizationId,
    );
    const document = result.documents[0];
    if (document === undefined) {
      const error = result.errors[0];
      return { output: `The conversion failed: ${error?.message ?? "no document"}`, failed: true };
    }
    return { output: document.mdContent ?? document.textContent ?? "" };
  }

  private todo(args: Record<string, unknown>, call: ToolCallInput): ToolResult {
    call.state.todos ??= [];
    const todos = call.state.todos;
    const action = args.action;
    if (action === "add") {
      const text = stringArg(args, "text");
      todos.push({ id: todos.length + 1, text, done: false });
    } else if (action === "done") {
      const item = todos.find((t) => t.id === args.id);
      if (item === undefined) throw new Error(`no to-do item ${String(args.id)}`);
      item.done = true;
    } else if (action !== "list") {
      throw new Error('action must be "list", "add" or "done"');
    }
    const lines = todos.map((t) => `${t.id}. [${t.done ? "x" : " "}] ${t.text}`);
    return { output: lines.length === 0 ? "The to-do list is empty." : lines.join("\n") };
  }

  private async callFunction(
    definition: Extract<ToolDefinition, { type: "function" }>,
    args: Record<string, unknown>,
    call: ToolCallInput,
  ): Promise<ToolResult> {
    const { allowPrivateNetwork, allowPrivateNetworkSetting: setting } = this.options;
    const body = JSON.stringify({
      tool: definition.name,
      callId: call.callId,
      arguments: args,
      responseId: call.state.id,
      conversationId: call.state.conversationId,
      agentId: call.state.agentId,
    });
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (definition.secret !== undefined) {
      headers[SIGNATURE_HEADER] = signBody(definition.secret, body, Math.floor(this.options.now() / 1000));
    }
    const timeout = AbortSignal.timeout(this.options.functionTimeoutMs);
    const signal = call.signal === undefined ? timeout : AbortSignal.any([timeout, call.signal]);
    const doFetch = this.options.fetch ?? guardedFetch(allowPrivateNetwork);
    let url = await checkEndpoint(definition.endpoint, allowPrivateNetwork, setting);
    const origin = url.origin;
    let method = "POST";
    let response: Response;
    for (let hop = 0; ; hop++) {
      try {
        // Redirects are followed by hand so that every hop passes the private-network check.
        response = await doFetch(url, {
          method,
          // The body and its signature go to the endpoint's own origin only.
          headers: url.origin === origin ? headers : {},
          ...(method === "POST" && url.origin === origin ? { body } : {}),
          signal,
          redirect: "manual",
        });
      } catch (error) {
        if (timeout.aborted) {
          return {
            output: `The endpoint did not answer within ${this.options.functionTimeoutMs} ms`,
            failed: true,
          };
        }
        const refused = refusedAddressOf(error);
        if (refused !== undefined) {
          throw new Error(
            `${refused.message}, a loopback, private or link-local address; function endpoints there are refused unless ${setting ?? DEFAULT_PRIVATE_NETWORK_SETTING}`,
          );
        }
        throw error;
      }
      const location = response.headers.get("location");
      if (response.status < 300 || response.status >= 400 || location === null) break;
      await response.body?.cancel().catch(() => {});
      if (hop >= MAX_FUNCTION_REDIRECTS) throw new Error("the endpoint redirected too many times");
      url = await checkEndpoint(new URL(location, url), allowPrivateNetwork, setting);
      // 307 and 308 repeat the request as it was; the others continue with a GET (RFC 9110, 15.4).
      if (response.status !== 307 && response.status !== 308) method = "GET";
    }
    const text = (await response.text()).slice(0, MAX_FUNCTION_OUTPUT_BYTES);
    if (!response.ok)
      return { output: `The endpoint answered HTTP ${response.status}: ${text}`, failed: true };
    return { output: text };
  }
}
