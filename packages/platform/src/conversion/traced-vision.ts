/**
 * The `vlm` pipeline's page reads as `chat {model}` spans (PLATFORM.md §13). The vision model
 * is called directly, not through the gateway, so its calls are traced here: inside the
 * conversion's `convert` span, each page read is a child with its model, tokens and (when the
 * organization captures content) the transcribed Markdown. The page image is never put on a
 * span: base64 pixels are not prompt text a reviewer could read (decision TR32).
 */
import type { VisionModel } from "@groundwork/convert";
import { completionMessages, GatewayTracing } from "@groundwork/gateway";
import type { TraceHooks } from "@groundwork/observability";

type ChatModel = VisionModel["chatModel"];

/** The vision model with every page read traced for `organizationId`; null stays null. */
export function tracedVision(
  vision: VisionModel | null,
  hooks: TraceHooks,
  organizationId: string,
): VisionModel | null {
  if (vision === null) return null;
  const tracing = new GatewayTracing(hooks);
  const route = { kind: "builtin", model: vision.model } as const;
  const chatModel: ChatModel = {
    async complete(request, options) {
      const span = tracing.start("chat", vision.model, organizationId);
      tracing.request(span, route, organizationId);
      try {
        const completion = await vision.chatModel.complete(request, options);
        tracing.finish(span, organizationId, {
          responseModel: completion.model,
          inputTokens: completion.usage?.prompt_tokens ?? 0,
          outputTokens: completion.usage?.completion_tokens ?? 0,
          // Vision page reads are not metered as model calls: the plan counts converted pages.
          costEur: 0,
          output: () => completionMessages(completion),
        });
        return completion;
      } catch (error) {
        tracing.fail(span, error);
        throw error;
      }
    },
    // The pipeline reads pages with `complete`; a stream passes through untraced.
    stream: (request, options) => vision.chatModel.stream(request, options),
  };
  return { ...vision, chatModel };
}
