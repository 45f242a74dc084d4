/**
 * The implicit platform tools of PLATFORM.md §6 that no definition entry configures:
 * `platform_deliver` and `platform_view_image` (always), `web_search` (when a search
 * provider is configured) and `platform_tool_search` (added by the run engine when the
 * catalogs hold more than 20 offerable tools). All are read-class server tools.
 */
import type { ToolAnnotations } from "./definition.js";
import type { ResolvedTool } from "./tools.js";

export const TOOL_SEARCH_THRESHOLD = 20;
export const TOOL_SEARCH_NAME = "platform_tool_search";

interface Spec {
  type: string;
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  annotations?: ToolAnnotations;
}

const DELIVER: Spec = {
  type: "platform.deliver",
  name: "platform_deliver",
  description:
    "Deliver results to the user as part of this response: a text (with an optional title), Files by id, and/or files of the bash file system by path (stored as Files). Give at least one of text, fileIds, paths.",
  parameters: {
    type: "object",
    properties: {
      text: { type: "string" },
      fileIds: { type: "array", items: { type: "string" } },
      paths: { type: "array", items: { type: "string" } },
      title: { type: "string" },
    },
  },
};

const VIEW_IMAGE: Spec = {
  type: "platform.view_image",
  name: "platform_view_image",
  description:
    "Look at an image (png, jpeg, gif, webp; at most 20 MiB): give exactly one of fileId (a File), url, or path (in the bash file system). The image is attached to your next step.",
  parameters: {
    type: "object",
    properties: { fileId: { type: "string" }, url: { type: "string" }, path: { type: "string" } },
  },
};

const WEB_SEARCH: Spec = {
  type: "web_search",
  name: "web_search",
  description: "Search the web. Returns [{title, url, snippet}], best first.",
  parameters: {
    type: "object",
    properties: {
      query: { type: "string" },
      count: { type: "integer", minimum: 1, maximum: 10, description: "How many results (default 5)" },
    },
    required: ["query"],
  },
  annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: true },
};

const TOOL_SEARCH: Spec = {
  type: "platform.tool_search",
  name: TOOL_SEARCH_NAME,
  description:
    "Find more tools: matches the query against the names and descriptions of every tool available to this agent; the tools it returns can be called for the rest of this response.",
  parameters: {
    type: "object",
    properties: {
      query: { type: "string" },
      limit: { type: "integer", minimum: 1, maximum: 10, description: "How many tools (default 5)" },
    },
    required: ["query"],
  },
};

function resolved(spec: Spec, offered = true): ResolvedTool {
  return {
    name: spec.name,
    definition: { type: spec.type, name: spec.name, description: spec.description },
    gate: {
      name: spec.name,
      runs: "server",
      runnable: true,
      builtinClass: "read",
      ...(spec.annotations === undefined ? {} : { annotations: spec.annotations }),
    },
    chat: offered
      ? {
          type: "function",
          function: { name: spec.name, description: spec.description, parameters: spec.parameters },
        }
      : null,
    catalog: "platform",
  };
}

export interface PlatformToolOptions {
  /** A web search provider is configured. */
  webSearch?: boolean;
}

/**
 * The implicit platform tools, in catalog order. Without a search provider `web_search` is
 * not offered, but a call naming it still reaches the platform (which fails it saying so).
 */
export function platformTools(options: PlatformToolOptions = {}): ResolvedTool[] {
  return [resolved(DELIVER), resolved(VIEW_IMAGE), resolved(WEB_SEARCH, options.webSearch === true)];
}

/** `platform_tool_search`, added by the engine when more than 20 tools are offerable. */
export function toolSearchTool(): ResolvedTool {
  return resolved(TOOL_SEARCH);
}

/** Query terms matched against names (twice the weight) and descriptions; best first, ties in catalog order. */
export function searchTools(
  tools: readonly ResolvedTool[],
  query: string,
  limit: number,
): Array<{ name: string; description: string; catalog: string }> {
  const terms = query
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((term) => term !== "");
  if (terms.length === 0) return [];
  const scored = tools.map((tool, index) => {
    const name = tool.name.toLowerCase();
    const description = (tool.chat?.function.description ?? "").toLowerCase();
    let score = 0;
    for (const term of terms) {
      if (name.includes(term)) score += 2;
      if (description.includes(term)) score += 1;
    }
    return { tool, index, score };
  });
  return scored
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, limit)
    .map(({ tool }) => ({
      name: tool.name,
      description: tool.chat?.function.description ?? "",
      catalog: tool.catalog ?? "definition",
    }));
}
