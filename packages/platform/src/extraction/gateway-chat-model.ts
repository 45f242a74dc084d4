/**
 * The engine's ChatModel port over the gateway, for one caller: routing, plans, BYOK limits and
 * usage metering stay the gateway's business, so every extraction call is metered (and a rerun is
 * billed as a new extraction) exactly like a chat completion.
 */
import type { CallOptions, ChatCompletionChunk, ChatModel, ChatRequest, Principal } from "@groundwork/core";
import type { ChatRequestBody, Gateway } from "@groundwork/gateway";

/**
 * A core `ChatRequest` is what `chatRequestSchema` accepts, minus the nullable spellings; the cast
 * only bridges zod's output type (where optional fields also admit `null`). The engine sets
 * `model` to the extraction's model string as the client sent it (`name` or `<prefix>/<model>`).
 */
function toBody(request: ChatRequest): ChatRequestBody {
  return { ...request, model: request.model } as ChatRequestBody;
}

export function gatewayChatModel(gateway: Gateway, principal: Principal): ChatModel {
  const context = (options?: CallOptions) =>
    options?.signal === undefined ? { principal } : { principal, signal: options.signal };
  return {
    complete: (request, options) => gateway.chat(toBody(request), context(options)),
    stream(request, options): AsyncIterable<ChatCompletionChunk> {
      return {
        async *[Symbol.asyncIterator]() {
          yield* await gateway.openChatStream(toBody(request), context(options));
        },
      };
    },
  };
}
