import type { IncomingHttpHeaders } from "node:http";
import { isObject } from "../../common/guards.js";

/**
 * One SEP-2243 header-mirrored tool parameter: the input property at `path` (reached through
 * `properties` only) whose value a 2026-07-28 client also sends as `Mcp-Param-<header>`.
 */
export interface ParamHeader {
  readonly header: string;
  readonly path: readonly string[];
  readonly type: "string" | "integer" | "boolean";
}

/** An HTTP token (RFC 9110): what a header name may be made of. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const TYPES = new Set(["string", "integer", "boolean"]);
const SENTINEL_START = "=?base64?";
const SENTINEL_END = "?=";
const CANONICAL_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const DECIMAL = /^-?\d+(\.\d+)?$/;
/** Keywords under which a declaration is not statically reachable, so the spec forbids one there. */
const UNREACHABLE = [
  "items",
  "prefixItems",
  "additionalProperties",
  "patternProperties",
  "oneOf",
  "anyOf",
  "allOf",
  "not",
  "if",
  "then",
  "else",
  "$defs",
];

/**
 * The `x-mcp-header` declarations of a tool's JSON input schema. Throws, naming the property
 * and the rule, when one breaks the specification's rules (a primitive property reachable
 * through `properties` only, a token name, unique ignoring case), so a bad declaration fails
 * at start-up instead of being dropped by clients.
 *
 * @example
 * ```ts
 * paramHeadersOf({ type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" } } });
 * // [{ header: "Region", path: ["region"], type: "string" }]
 * ```
 */
export function paramHeadersOf(schema: unknown): ParamHeader[] {
  const found: ParamHeader[] = [];
  const visit = (node: unknown, path: string[], reachable: boolean): void => {
    if (!isObject(node)) return;
    const record = node;
    const where = path.length === 0 ? "the input schema itself" : `property "${path.join(".")}"`;
    if ("x-mcp-header" in record) {
      const header = record["x-mcp-header"];
      if (!reachable || path.length === 0)
        throw new Error(`${where}: x-mcp-header is allowed only on properties reached through "properties"`);
      if (typeof header !== "string" || !TOKEN.test(header))
        throw new Error(
          `${where}: x-mcp-header must be an HTTP token (letters, digits, "-"), got ${JSON.stringify(header)}`,
        );
      if (!TYPES.has(String(record.type)))
        throw new Error(`${where}: x-mcp-header is allowed only on a string, integer or boolean property`);
      const twin = found.find((other) => other.header.toLowerCase() === header.toLowerCase());
      if (twin)
        throw new Error(`${where}: x-mcp-header "${header}" is already declared by "${twin.path.join(".")}"`);
      found.push({ header, path, type: record.type as ParamHeader["type"] });
    }
    const properties = record.properties;
    if (properties !== null && typeof properties === "object")
      for (const [key, child] of Object.entries(properties)) visit(child, [...path, key], reachable);
    for (const keyword of UNREACHABLE) {
      const sub = record[keyword];
      if (sub === null || typeof sub !== "object") continue;
      const branches = Array.isArray(sub)
        ? sub
        : keyword === "$defs" || keyword === "patternProperties"
          ? Object.values(sub)
          : [sub];
      for (const branch of branches) visit(branch, [...path, `<${keyword}>`], false);
    }
  };
  visit(schema, [], true);
  return found;
}

/**
 * Why the `Mcp-Param-*` headers of a `tools/call` disagree with its arguments, or `undefined`
 * when they agree. A value present in the arguments must come with its header, equal once
 * decoded (a `=?base64?…?=` value is Base64 of UTF-8; numbers compare as numbers); an absent
 * or null argument expects no header.
 */
export function paramHeaderMismatch(
  declared: readonly ParamHeader[],
  args: unknown,
  headers: IncomingHttpHeaders,
): { header: string; problem: string } | undefined {
  for (const { header, path, type } of declared) {
    const name = `Mcp-Param-${header}`;
    const value = valueAt(args, path);
    const expected = primitiveText(value);
    if (expected === undefined) continue;
    const raw = headers[name.toLowerCase()];
    const sent = Array.isArray(raw) ? raw.join(", ") : raw;
    const argument = `arguments.${path.join(".")}=${JSON.stringify(value)}`;
    if (sent === undefined)
      return { header: name, problem: `the body carries ${argument} but the ${name} header is absent` };
    const decoded = decodeHeaderValue(sent);
    if (decoded === undefined)
      return {
        header: name,
        problem: `the ${name} header is not canonical Base64 of UTF-8 text inside =?base64?…?=`,
      };
    const equal =
      type === "integer" && typeof value === "number" && DECIMAL.test(decoded)
        ? Number(decoded) === value
        : decoded === expected;
    if (!equal)
      return {
        header: name,
        problem: `the ${name} header is ${JSON.stringify(decoded)} but the body carries ${argument}`,
      };
  }
  return undefined;
}

function valueAt(root: unknown, path: readonly string[]): unknown {
  let node = root;
  for (const key of path) {
    if (!isObject(node)) return undefined;
    node = node[key];
  }
  return node;
}

/** The text a header carries for a primitive argument, or `undefined` for none (or no primitive). */
function primitiveText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return String(value);
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return undefined;
}

function decodeHeaderValue(value: string): string | undefined {
  if (!(value.startsWith(SENTINEL_START) && value.endsWith(SENTINEL_END))) return value;
  const base64 = value.slice(SENTINEL_START.length, value.length - SENTINEL_END.length);
  if (!CANONICAL_BASE64.test(base64)) return undefined;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.from(base64, "base64"));
  } catch {
    return undefined;
  }
}
