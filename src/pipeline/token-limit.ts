import { fieldOf } from "../common/guards.js";
import { declaredTokenLimit } from "./capability.js";
import type { OperationDefinition } from "./operation.js";

/** The `_meta` key through which a client lowers the budget of one call. */
export const MAX_TOKENS_META = "frugal/maxTokens";

/**
 * Marks the `meta` of a resource read made for a tool that holds what it reads to its own
 * budget, slice by slice (`read_resource`): the resource's own budget lets the whole value
 * through to that tool, never to a client. A symbol, so no request can carry it.
 */
export const SLICED_READ: unique symbol = Symbol("frugal.slicedRead");

/** True for the `meta` of a read that a tool slices itself (see `SLICED_READ`). */
export function isSlicedRead(meta: Readonly<Record<string, unknown>>): boolean {
  return fieldOf(meta, SLICED_READ) === true;
}

/** The budget of reads and spills when nothing declares one. */
export const DEFAULT_TOKEN_LIMIT = 2000;

/** The `frugal/maxTokens` a client sent, when it is a usable limit. */
export function requestedTokenLimit(meta: Readonly<Record<string, unknown>>): number | undefined {
  const asked = meta[MAX_TOKENS_META];
  return typeof asked === "number" && Number.isSafeInteger(asked) && asked >= 1 ? asked : undefined;
}

/**
 * The token limit of one call: the declared budget, lowered (never raised) by the client's
 * `_meta["frugal/maxTokens"]`; `undefined` when neither exists.
 *
 * @example
 * ```ts
 * tokenLimit(2000, { "frugal/maxTokens": 500 }); // 500
 * tokenLimit(2000, { "frugal/maxTokens": 9000 }); // 2000
 * ```
 */
export function tokenLimit(
  declared: number | undefined,
  meta: Readonly<Record<string, unknown>>,
): number | undefined {
  const asked = requestedTokenLimit(meta);
  if (asked === undefined) return declared;
  return declared === undefined ? asked : Math.min(declared, asked);
}

/** The token limit of one call of `definition` (the limit its capabilities declare, lowered by the client). */
export function callTokenLimit(
  definition: OperationDefinition,
  meta: Readonly<Record<string, unknown>>,
): number | undefined {
  return tokenLimit(declaredTokenLimit(definition), meta);
}
