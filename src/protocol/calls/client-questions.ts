import { fieldOf } from "../../common/guards.js";
import { envelopeOf } from "./request-envelope.js";

/**
 * The request option that carries the key a handler named for one question
 * (`ctx.elicit(params, { key })`): a 2026-07-28 input-required result lists the question
 * under it, and the client answers under it. SDK 1.x ignores options it does not know, so
 * a 2025 session sends the question as before.
 */
export const INPUT_KEY_OPTION = "frugal/inputKey";

/**
 * True on a 2026-07-28 request: the SDK checks the input-required result against the
 * capabilities the request declared and answers a missing one with the protocol's own
 * -32021 error, so `ctx` does not refuse the question itself.
 */
export function isReplayed(extra: object): boolean {
  return envelopeOf(extra) !== undefined;
}

/** The question key named in a request's options, if any. */
export function inputKeyOf(options: unknown): string | undefined {
  const key = fieldOf(options, INPUT_KEY_OPTION);
  return typeof key === "string" ? key : undefined;
}
