import type { IncomingMessage, ServerResponse } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import type { JsonValue } from "./json.js";
import type { SseEvent, StreamControl } from "./reply.js";

/** How to answer one request, decided before the first byte is written. */
export type ResponsePlan =
  | {
      readonly kind: "body";
      readonly status: number;
      readonly headers: Readonly<Record<string, string>>;
      readonly body: string;
      /** Send the headers and half the body, then cut the connection. */
      readonly hangUp?: boolean;
    }
  | {
      readonly kind: "sse";
      readonly status: number;
      readonly headers: Readonly<Record<string, string>>;
      readonly events: readonly SseEvent[];
      readonly chunkDelayMs?: number;
      readonly hangUpAfterEvents?: number;
    }
  | { readonly kind: "hang-up" };

/** A JSON answer. */
export function jsonPlan(
  status: number,
  body: JsonValue,
  headers: Readonly<Record<string, string>> = {},
  hangUp = false,
): ResponsePlan {
  return {
    kind: "body",
    status,
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
    ...(hangUp ? { hangUp } : {}),
  };
}

/** Reads a request body in full. */
export async function readBody(message: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of message) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** One event in the `text/event-stream` framing (an `event:` line only when named). */
export function formatSseEvent(event: SseEvent): string {
  const data = typeof event.data === "string" ? event.data : JSON.stringify(event.data);
  const lines = data.split("\n").map((line) => `data: ${line}\n`);
  return `${event.event === undefined ? "" : `event: ${event.event}\n`}${lines.join("")}\n`;
}

/** Waits, unless the signal fires first; says whether the full time passed. */
export async function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  if (ms <= 0) return !signal.aborted;
  try {
    await sleep(ms, undefined, { signal });
    return true;
  } catch {
    return false;
  }
}

/**
 * Writes a plan. Stops quietly once `signal` fires (the client went away); calls `onHangUp`
 * just before cutting a connection the script asked to cut.
 */
export async function sendPlan(
  response: ServerResponse,
  plan: ResponsePlan,
  signal: AbortSignal,
  onHangUp: () => void,
): Promise<void> {
  // end() rather than destroy(): bytes already written reach the client before the FIN, so the
  // failure lands after them rather than racing them.
  const cut = () => {
    onHangUp();
    response.socket?.end();
  };
  if (signal.aborted) return;
  if (plan.kind === "hang-up") return cut();
  if (plan.kind === "body") {
    const bytes = Buffer.from(plan.body);
    response.writeHead(plan.status, { ...plan.headers, "content-length": String(bytes.length) });
    if (plan.hangUp === true) {
      response.write(bytes.subarray(0, Math.floor(bytes.length / 2)));
      return cut();
    }
    response.end(bytes);
    return;
  }
  response.writeHead(plan.status, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-cache",
    ...plan.headers,
  });
  // Clients wait for the head before reading events; a delayed first event must not hold it back.
  response.flushHeaders();
  for (const [index, event] of plan.events.entries()) {
    if (index === plan.hangUpAfterEvents) return cut();
    if (index > 0 && !(await pause(plan.chunkDelayMs ?? 0, signal))) return;
    if (signal.aborted) return;
    response.write(formatSseEvent(event));
  }
  if (plan.hangUpAfterEvents !== undefined && plan.hangUpAfterEvents >= plan.events.length) return cut();
  response.end();
}

/** A successful stream answer carrying a reply's stream controls. */
export function ssePlan(events: readonly SseEvent[], control: StreamControl): ResponsePlan {
  return {
    kind: "sse",
    status: 200,
    headers: {},
    events,
    ...(control.chunkDelayMs === undefined ? {} : { chunkDelayMs: control.chunkDelayMs }),
    ...(control.hangUpAfterEvents === undefined ? {} : { hangUpAfterEvents: control.hangUpAfterEvents }),
  };
}

/** A successful JSON answer; a reply asking to hang up mid-stream cuts it half-way instead. */
export function completionJsonPlan(body: JsonValue, control: StreamControl): ResponsePlan {
  return jsonPlan(200, body, {}, control.hangUpAfterEvents !== undefined);
}
