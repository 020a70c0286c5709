import { fieldOf } from "../common/guards.js";

/** A value as JSON has it: what `JSON.parse` gives back. */
export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;

/** A JSON object. */
export interface JsonObject {
  [key: string]: JsonValue;
}

/**
 * The JSON form of a value, built in one walk: exactly what
 * `JSON.parse(JSON.stringify(value, jsonReplacer))` gives, without writing the text and
 * reading it back. `toJSON` is called (a `Date` becomes its ISO string), a bigint becomes
 * its decimal string, `undefined`, functions and symbols are left out of objects and become
 * `null` in arrays, non-finite numbers become `null`, and a cycle throws a `TypeError` as
 * `JSON.stringify` does. Returns `undefined` where `JSON.stringify` gives no text (a
 * function, `undefined`). The result is always a fresh tree: it shares nothing with
 * `value`, so a handler that changes its objects later changes no result already shaped
 * (or cached).
 *
 * @example
 * ```ts
 * toJsonValue({ at: new Date(0), n: 12n, skip: undefined }); // { at: "1970-01-01T00:00:00.000Z", n: "12" }
 * ```
 */
export function toJsonValue(value: unknown): JsonValue | undefined {
  return convert(value, "", []);
}

/** A JSON replacer that keeps bigints (as strings) instead of throwing on them. */
export function jsonReplacer(_key: string, value: unknown): unknown {
  return typeof value === "bigint" ? value.toString() : value;
}

/**
 * One property, as `SerializeJSONProperty` of the specification reads it: `toJSON`, then
 * the bigint rule, then wrapper objects unwrapped. `parents` holds the objects being
 * walked, for the cycle check (a short array: its length is the depth).
 */
function convert(value: unknown, key: string | number, parents: object[]): JsonValue | undefined {
  if (value !== null && (typeof value === "object" || typeof value === "bigint")) {
    const toJSON = fieldOf(value, "toJSON");
    if (typeof toJSON === "function") value = toJSON.call(value, String(key));
  }
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      // JSON writes -0 as 0.
      return Number.isFinite(value) ? (value === 0 ? 0 : value) : null;
    case "bigint":
      return value.toString();
    case "object":
      if (value === null) return null;
      return convertObject(value, parents);
    default:
      // undefined, functions, symbols: no JSON text.
      return undefined;
  }
}

const OWN = (value: JsonValue): PropertyDescriptor => ({
  value,
  writable: true,
  enumerable: true,
  configurable: true,
});

function convertObject(value: object, parents: object[]): JsonValue | undefined {
  if (value instanceof Number || value instanceof String || value instanceof Boolean)
    return convert(value.valueOf(), "", parents);
  if (parents.includes(value)) throw new TypeError("Converting circular structure to JSON");
  parents.push(value);
  let converted: JsonValue;
  if (Array.isArray(value)) {
    const array: JsonValue[] = [];
    for (let i = 0; i < value.length; i++) array.push(convert(value[i], i, parents) ?? null);
    converted = array;
  } else {
    const object: JsonObject = {};
    for (const name of Object.keys(value)) {
      const item = convert((value as Record<string, unknown>)[name], name, parents);
      if (item === undefined) continue;
      // An own "__proto__" key, as JSON.parse makes it (assigning it would set the prototype).
      if (name === "__proto__") Object.defineProperty(object, name, OWN(item));
      else object[name] = item;
    }
    converted = object;
  }
  parents.pop();
  return converted;
}
