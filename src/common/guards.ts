/**
 * Type guards for values of unknown shape (parsed JSON, caught errors, messages from the
 * wire), so code reads their fields through a check instead of a cast.
 */

/**
 * True for any object that is not `null`, arrays included: a value whose fields can be read.
 *
 * @example
 * ```ts
 * if (isObject(body) && body.method === "tools/call") … // body.method is unknown, no cast
 * ```
 */
export function isObject(value: unknown): value is Record<PropertyKey, unknown> {
  return typeof value === "object" && value !== null;
}

/**
 * The field `key` of a value of unknown shape, as `value?.[key]` reads it: `undefined` for
 * `null` and `undefined`, the wrapped field for a primitive.
 *
 * @example
 * ```ts
 * fieldOf(error, "code"); // "ENOENT" for a failed `fs` call, undefined for a string thrown
 * ```
 */
export function fieldOf(value: unknown, key: PropertyKey): unknown {
  return value === null || value === undefined ? undefined : Reflect.get(Object(value), key);
}

/**
 * True for a JSON-RPC request id (`string | number`); the SDK checked the message's shape,
 * so an id that is present is one of these.
 *
 * @example
 * ```ts
 * const id = fieldOf(message, "id");
 * if (isRequestId(id)) pending.delete(id);
 * ```
 */
export function isRequestId(value: unknown): value is string | number {
  return typeof value === "string" || typeof value === "number";
}

/**
 * The element at `index` of a list, typed as an element: for an index the caller knows is in
 * range (a loop bound, a heap slot below `length`), where `noUncheckedIndexedAccess` would
 * add `undefined`. It reads `list[index]` and nothing more, so the one assertion lives here.
 *
 * @example
 * ```ts
 * for (let i = 0; i + 1 < offsets.length; i++) size += itemAt(offsets, i + 1) - itemAt(offsets, i);
 * ```
 */
export function itemAt<T>(list: ArrayLike<T>, index: number): T {
  return list[index] as T;
}
