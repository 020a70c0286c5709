import type { CallOutcome } from "../../pipeline/call-outcome.js";
import { envelopeOf } from "./request-envelope.js";

/**
 * Keeps the outcome of the operation a 2026-07-28 request runs, for the registrar to read
 * once the request is answered (the cache hints of `resources/read`). Only the first
 * operation of a request counts (a resource tool may run others inside it); 2025 requests
 * keep nothing, so their hot path stays as it was.
 */
export function recordOutcome(extra: object, outcome: CallOutcome): void {
  const envelope = envelopeOf(extra);
  if (envelope && envelope.outcome === undefined) envelope.outcome = outcome;
}

/** The outcome `recordOutcome` kept for this request, if any. */
export function outcomeOf(extra: object): CallOutcome | undefined {
  return envelopeOf(extra)?.outcome;
}
