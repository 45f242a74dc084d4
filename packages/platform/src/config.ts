/**
 * The platform's settings: one typed object with defaults. Nothing here reads the
 * environment — the server maps its GROUNDWORK_* variables onto this object
 * (packages/server/src/config.ts), a library user writes it by hand.
 */
import { DEFAULT_LIMITS } from "@groundwork/convert";
import type { ExtractionSettings } from "@groundwork/extract";
import { DEFAULT_CHAT_PRICES, type TokenPrice } from "@groundwork/gateway";

export interface GroundworkConfig {
  /** The OpenAI-compatible upstream behind the built-in chat and embedding model names; null: none. */
  builtin: { baseUrl: string; apiKey: string } | null;
  /** The model (on the built-in upstream) that reads pages for the `vlm` pipeline; null: that pipeline is refused. */
  visionModel: string | null;
  /** Lets user-supplied URLs (http sources, function tools) reach loopback, private and link-local addresses. */
  allowPrivateNetwork: boolean;
  /**
   * Origin of the chat app that connector pauses and questions point to (`next`, `answerUrl`);
   * null renders paths only (the server passes its own origin by default).
   */
  chatUrl: string | null;
  /** Concurrent calls to an organization's own providers. */
  byokConcurrency: number;
  /**
   * Built-in chat prices by model name (EUR per million tokens), charged against the plan; `*`
   * prices every unlisted name. Default: `DEFAULT_CHAT_PRICES`; `{}` makes built-in chat free.
   */
  chatPrices: Readonly<Record<string, TokenPrice>>;
  conversion: {
    /** Per http source. */
    fetchTimeoutMs: number;
    maxFetchBytes: number;
    /**
     * A folder of `<lang>.traineddata` files for OCR languages beyond the installed
     * `@tesseract.js-data/<lang>` packages; null: the packages only.
     */
    tessdataDir: string | null;
  };
  extraction: {
    /** Engine settings (thresholds, chunk sizes); the spec's values where unset. */
    settings: Partial<ExtractionSettings>;
  };
  agents: {
    functionTimeoutMs: number;
    /** A connector (MCP) tool call, not counting time spent waiting for an answer to its question (PLATFORM.md §5.3: 60 s). */
    connectorCallTimeoutMs: number;
    /** Connecting to a connector and its `tools/list` (all pages) before a run (PLATFORM.md §5.3: 10 s). */
    connectorListTimeoutMs: number;
    /** How long a paused run waits for answers; the spec's hour by default. */
    pauseTimeoutMs: number | null;
    maxSteps: number | null;
    /**
     * The model of the `auto`-mode judge (PLATFORM.md §6), as a model string the gateway
     * routes; null: each run's answering model.
     */
    judgeModel: string | null;
  };
  /**
   * The search provider of the `web_search` agent tool (PLATFORM.md §6): `GET <url>?q=&count=`
   * answering `{results: [{title, url, snippet}]}`, the key sent as `Authorization: Bearer`;
   * null: the tool is not offered.
   */
  webSearch: { url: string; apiKey: string | null } | null;
  /** Background jobs: a worker that died loses its job's lease after `leaseMs`; idle workers poll every `pollMs`. */
  workers: { leaseMs: number; pollMs: number };
  /** Annotation queues (PLATFORM.md §12): how long a claimed or updated item stays locked to its member (integer ≥ 1). */
  queues: { lockSeconds: number };
  /**
   * How error messages name a setting the caller can change. A library user reads
   * `allowPrivateNetwork`; the server replaces these with its environment variables.
   */
  settingNames: {
    allowPrivateNetwork: string;
    visionModel: string;
    builtin: string;
    judgeModel: string;
    webSearch: string;
  };
}

/** The groups merged field by field; every other field is taken whole. */
type Groups = "conversion" | "extraction" | "agents" | "workers" | "settingNames";
type Partially<T> = { [K in keyof T]?: K extends Groups ? Partial<T[K]> : T[K] };

/** What `createGroundwork` accepts: any subset, nested groups merged field by field. */
export type GroundworkConfigInput = Partially<GroundworkConfig>;

export const DEFAULT_CONFIG: GroundworkConfig = {
  builtin: null,
  visionModel: null,
  allowPrivateNetwork: false,
  chatUrl: null,
  byokConcurrency: 16,
  chatPrices: DEFAULT_CHAT_PRICES,
  conversion: { fetchTimeoutMs: 60_000, maxFetchBytes: DEFAULT_LIMITS.maxDocumentBytes, tessdataDir: null },
  extraction: { settings: {} },
  agents: {
    functionTimeoutMs: 30_000,
    connectorCallTimeoutMs: 60_000,
    connectorListTimeoutMs: 10_000,
    pauseTimeoutMs: null,
    maxSteps: null,
    judgeModel: null,
  },
  webSearch: null,
  workers: { leaseMs: 30_000, pollMs: 500 },
  queues: { lockSeconds: 300 },
  settingNames: {
    allowPrivateNetwork: "the allowPrivateNetwork setting",
    visionModel: "the visionModel setting (with a built-in model service)",
    builtin: "the builtin setting (an OpenAI-compatible base URL and key)",
    judgeModel: "the agents.judgeModel setting",
    webSearch: "the webSearch setting",
  },
};

export function resolveConfig(input: GroundworkConfigInput = {}): GroundworkConfig {
  return {
    builtin: input.builtin === undefined ? DEFAULT_CONFIG.builtin : input.builtin,
    visionModel: input.visionModel === undefined ? DEFAULT_CONFIG.visionModel : input.visionModel,
    allowPrivateNetwork: input.allowPrivateNetwork ?? DEFAULT_CONFIG.allowPrivateNetwork,
    chatUrl: input.chatUrl === undefined ? DEFAULT_CONFIG.chatUrl : input.chatUrl,
    byokConcurrency: input.byokConcurrency ?? DEFAULT_CONFIG.byokConcurrency,
    chatPrices: input.chatPrices ?? DEFAULT_CONFIG.chatPrices,
    conversion: { ...DEFAULT_CONFIG.conversion, ...input.conversion },
    extraction: { ...DEFAULT_CONFIG.extraction, ...input.extraction },
    agents: { ...DEFAULT_CONFIG.agents, ...input.agents },
    webSearch: input.webSearch === undefined ? DEFAULT_CONFIG.webSearch : input.webSearch,
    workers: { ...DEFAULT_CONFIG.workers, ...input.workers },
    queues: input.queues ?? DEFAULT_CONFIG.queues,
    settingNames: { ...DEFAULT_CONFIG.settingNames, ...input.settingNames },
  };
}
