/**
 * A minimal OpenAI-compatible ChatModel for the vlm pipeline, used when the
 * server runs with GROUNDWORK_VLM_MODEL and the built-in upstream configured.
 * (Only `complete` is needed: page transcription does not stream.)
 */
import type {
  CallOptions,
  ChatCompletion,
  ChatCompletionChunk,
  ChatModel,
  ChatRequest,
} from "@groundwork/core";

export class OpenAICompatibleChatModel implements ChatModel {
  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string,
    private readonly doFetch: typeof fetch = fetch,
  ) {}

  async complete(request: ChatRequest, options: CallOptions = {}): Promise<ChatCompletion> {
    const response = await this.doFetch(`${this.baseUrl.replace(/\/+$/, "")}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${this.apiKey}` },
      body: JSON.stringify(request),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    if (!response.ok) {
      const text = await response.text().catch(() => "");
      throw new Error(`upstream answered ${response.status}: ${text.slice(0, 300)}`);
    }
    return (await response.json()) as ChatCompletion;
  }

  // biome-ignore lint/correctness/useYield: the vlm pipeline never streams
  async *stream(): AsyncIterable<ChatCompletionChunk> {
    throw new Error("Streaming is not supported by the conversion vision model adapter");
  }
}
