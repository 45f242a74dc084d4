/**
 * Server-Sent Events in the chat-completions convention: one `data:` line per
 * chunk, `data: [DONE]` at the end. An error after the first byte cannot change
 * the status any more, so it is sent as a final `data: {"error": …}` event.
 */
import { toErrorEnvelope } from "@groundwork/core";
import { toGroundworkError } from "../../http/errors.js";

const encoder = new TextEncoder();

export interface SseOptions<T> {
  /** Rendering of one item as the event's data (JSON by default). */
  render?: (item: T) => string;
  /** Event name per item (the responses protocol names its events); none by default. */
  eventName?: (item: T) => string | undefined;
  /** Send `data: [DONE]` after the last item. */
  done: boolean;
  onError?: (error: unknown) => void;
}

export function sseResponse<T>(
  items: AsyncIterable<T>,
  options: SseOptions<T>,
  headers: Record<string, string> = {},
): Response {
  const iterator = items[Symbol.asyncIterator]();
  const render = options.render ?? ((item: T) => JSON.stringify(item));
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await iterator.next();
        if (next.done === true) {
          if (options.done) controller.enqueue(encoder.encode("data: [DONE]\n\n"));
          controller.close();
          return;
        }
        const event = options.eventName?.(next.value);
        controller.enqueue(
          encoder.encode(`${event === undefined ? "" : `event: ${event}\n`}data: ${render(next.value)}\n\n`),
        );
      } catch (error) {
        options.onError?.(error);
        controller.enqueue(
          encoder.encode(`data: ${JSON.stringify(toErrorEnvelope(toGroundworkError(error)))}\n\n`),
        );
        controller.close();
      }
    },
    async cancel() {
      // The client went away: stop the upstream call.
      await iterator.return?.();
    },
  });
  return new Response(body, {
    status: 200,
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      connection: "keep-alive",
      ...headers,
    },
  });
}
