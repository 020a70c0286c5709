import { randomUUID } from "node:crypto";

const CALL_ID = Symbol("frugal.callId");

type WithCallId = { [CALL_ID]?: string | (() => string) };

/**
 * Names the call a request's `extra` belongs to: a 2026-07-28 request takes the id its
 * request state carries (so a replayed input-required round keeps it), given lazily.
 *
 * @example
 * ```ts
 * const extra = withCallId(extraOf(ctx, era, ask), () => replay.callId);
 * callIdOf(extra); // the id of the first round, on every round
 * ```
 */
export function withCallId<T extends object>(extra: T, callId: () => string): T {
  return Object.assign(extra, { [CALL_ID]: callId });
}

/**
 * The id of the call `extra` belongs to (`ctx.callId`): the one it was given, else a random
 * UUID made on first need and kept on the `extra`, so every context of one request (a
 * resource tool's nested read, an interceptor's) sees the same id. Never the JSON-RPC id,
 * which each client numbers from the same start.
 */
export function callIdOf(extra: object): string {
  const holder = extra as WithCallId;
  const given = holder[CALL_ID];
  if (typeof given === "string") return given;
  const id = given ? given() : randomUUID();
  holder[CALL_ID] = id;
  return id;
}
