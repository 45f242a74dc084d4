import { EventEmitter } from "node:events";
import type { ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { ClientDisconnect } from "./client-disconnect.js";

/** A response as ClientDisconnect reads it: a `close` event and whether the answer ended. */
function response(): ServerResponse & { finish(): void; close(): void } {
  const emitter = new EventEmitter() as EventEmitter & { writableFinished: boolean };
  emitter.writableFinished = false;
  return Object.assign(emitter, {
    finish: () => {
      emitter.writableFinished = true;
    },
    close: () => {
      emitter.emit("close");
    },
  }) as unknown as ServerResponse & { finish(): void; close(): void };
}

describe("ClientDisconnect", () => {
  it("aborts once when the response closes before its answer ended, running each listener once", () => {
    const outgoing = response();
    const cancel = new ClientDisconnect(outgoing);
    const calls: string[] = [];
    const kept = () => calls.push("kept");
    const removed = () => calls.push("removed");
    cancel.addEventListener("abort", kept);
    cancel.addEventListener("abort", removed);
    cancel.removeEventListener("abort", removed);
    const signal = cancel.signal;
    expect(signal.aborted).toBe(false);
    outgoing.close();
    outgoing.close();
    expect(calls).toEqual(["kept"]);
    expect(cancel.aborted).toBe(true);
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe(cancel.reason);
    expect(String(cancel.reason)).toMatch(/closed before the answer/);
  });

  it("makes an AbortSignal only when read, already aborted when the client is gone", () => {
    const outgoing = response();
    const cancel = new ClientDisconnect(outgoing);
    outgoing.close();
    const signal = cancel.signal;
    expect(signal).toBeInstanceOf(AbortSignal);
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe(cancel.reason);
    expect(cancel.signal).toBe(signal);
  });

  it("does not abort when the response closes after its answer ended", () => {
    const outgoing = response();
    const cancel = new ClientDisconnect(outgoing);
    const signal = cancel.signal;
    let called = false;
    cancel.addEventListener("abort", () => {
      called = true;
    });
    outgoing.finish();
    outgoing.close();
    expect(cancel.aborted).toBe(false);
    expect(signal.aborted).toBe(false);
    expect(called).toBe(false);
  });
});
