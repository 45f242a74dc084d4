/**
 * What a call's context hands on: to the adapter its call options, to the retry loop and the
 * metering its cancellation. A caller may give a cheap cancellation beside the AbortSignal (the
 * server does: making an AbortSignal costs ~5 µs on Node 20, HP59); the gateway's own transport
 * takes the cheap one, and the AbortSignal is read only where an SDK needs one.
 */
import type { CallOptions, Cancellation } from "@groundwork/core";
import type { CallContext } from "./ports.js";

/**
 * The adapter's call options: the cheap cancellation when the caller gave one (the gateway's own
 * transport takes it), and `signal` read only by an adapter that asks for it (the SDK adapters).
 */
export function signalOf(context: CallContext): CallOptions {
  if (context.cancel !== undefined) return new CancelOptions(context.cancel, context);
  return context.signal === undefined ? {} : { signal: context.signal };
}

/** Call options whose `signal` is read from the context only when asked (a prototype getter). */
class CancelOptions implements CallOptions {
  constructor(
    readonly cancel: Cancellation,
    private readonly context: CallContext,
  ) {}

  get signal(): AbortSignal {
    // A caller that gives `cancel` gives `signal` too (the server's is made on first read).
    return this.context.signal as AbortSignal;
  }
}

/** The call's cancellation, without making an AbortSignal when the caller gave a cheaper one. */
export function cancellationOf(context: CallContext): Cancellation | undefined {
  return context.cancel ?? context.signal;
}
