import type { ClientCapabilities, LoggingLevel } from "@modelcontextprotocol/sdk/types.js";
import type { CallOutcome } from "../../pipeline/call-outcome.js";

/**
 * What a 2026-07-28 request carries itself, instead of what a handshake would have set,
 * and what its run learned for its answer. It rides on the request's `extra`, which every
 * part of a call already holds: an `AsyncLocalStorage` would turn on promise hooks for the
 * whole process, a cost on every promise of every call, 2025 sessions included.
 */
export interface RequestEnvelope {
  /** The log level the request's envelope names; none means the request wants no log messages. */
  readonly logLevel: LoggingLevel | undefined;
  /** The capabilities the request's envelope declares for its client. */
  readonly capabilities: ClientCapabilities | undefined;
  /** The outcome of the first operation the request ran (a resource tool may run others inside it). */
  outcome: CallOutcome | undefined;
}

const ENVELOPE = Symbol("frugal.requestEnvelope");

/**
 * Puts a 2026-07-28 request's envelope on its `extra`; `ctx`, the owner and the replay of
 * questions read it there.
 *
 * @example
 * ```ts
 * const extra = withEnvelope(extraOf(ctx), { logLevel: "info", capabilities: {}, outcome: undefined });
 * envelopeOf(extra)?.logLevel; // "info"
 * ```
 */
export function withEnvelope<T extends object>(extra: T, envelope: RequestEnvelope): T {
  return Object.assign(extra, { [ENVELOPE]: envelope });
}

/** The envelope of a 2026-07-28 request; `undefined` for a request of a 2025 session. */
export function envelopeOf(extra: object): RequestEnvelope | undefined {
  return (extra as { [ENVELOPE]?: RequestEnvelope })[ENVELOPE];
}
