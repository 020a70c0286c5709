import { isObject } from "../common/guards.js";

/**
 * Why a parsed HTTP body is no JSON-RPC message or batch, naming the field, or `undefined`.
 * The SDKs answer such a body with a bare "not a valid JSON-RPC message"; the front door says
 * which field is wrong and how. What a field's value means (`params`, `_meta`) is left to the
 * eras, which answer -32602 naming it.
 *
 * @example
 * ```ts
 * envelopeProblem([]); // "the JSON-RPC batch is empty; send at least one message"
 * envelopeProblem({ jsonrpc: "1.0", id: 1, method: "ping" }); // '`jsonrpc` must be "2.0", not "1.0"'
 * ```
 */
export function envelopeProblem(body: unknown): string | undefined {
  if (!Array.isArray(body)) return messageProblem(body, "the body");
  if (body.length === 0) return "the JSON-RPC batch is empty; send at least one message";
  for (const [index, message] of body.entries()) {
    const problem = messageProblem(message, `message ${index} of the batch`);
    if (problem) return problem;
  }
  return undefined;
}

function messageProblem(message: unknown, where: string): string | undefined {
  if (!isObject(message) || Array.isArray(message))
    return `${where} must be a JSON-RPC message (an object), not ${kindOf(message)}`;
  const { jsonrpc, method, id } = message;
  const at = where === "the body" ? "" : ` (${where})`;
  if (jsonrpc !== "2.0") return `\`jsonrpc\` must be "2.0", not ${show(jsonrpc)}${at}`;
  if ("method" in message && typeof method !== "string")
    return `\`method\` must be a string, not ${kindOf(method)}${at}`;
  if ("id" in message && !(typeof id === "string" || Number.isFinite(id) || id === null))
    return `\`id\` must be a string or a number, not ${kindOf(id)}${at}`;
  if (!("method" in message) && !("result" in message) && !("error" in message))
    return `the message has no \`method\` (a request or notification) and no \`result\` or \`error\` (a response)${at}`;
  return undefined;
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

function show(value: unknown): string {
  return value === undefined ? "missing" : JSON.stringify(value);
}
