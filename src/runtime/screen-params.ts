import type { JSONRPCMessage, RequestId } from "@modelcontextprotocol/sdk/types.js";
import { nestedDeeperThan } from "../pipeline/stages/measure-input.js";
import { toolError } from "../results/tool-error.js";

/**
 * Checks what the SDK's request schemas would mangle or choke on, before the SDK sees a
 * request; returns the answer to send instead, or `undefined` to let the request through.
 *
 * - `_meta` nested deeper than the input depth limit: `-32602` (only `frugal/maxTokens` and
 *   the SDK's own keys are read from it; nothing needs depth, and nothing walks it after this).
 * - `tools/call` with `arguments` that is not an object: `-32602`, not the SDK's `-32603` and
 *   its raw schema dump.
 * - `tools/call` with a top-level `__proto__` argument: an `isError` result naming the key.
 *   The SDK's schema would drop it silently (nested ones reach the validate stage, which
 *   refuses them the same way).
 */
export function screenParams(
  id: RequestId,
  method: string,
  params: unknown,
  maxDepth: number,
): JSONRPCMessage | undefined {
  if (!isObject(params)) return undefined;
  if (params._meta !== undefined && nestedDeeperThan(params._meta, maxDepth)) {
    return invalidParams(id, `\`_meta\` is nested deeper than ${maxDepth} levels`);
  }
  if (method !== "tools/call" || !("arguments" in params) || params.arguments === undefined) return undefined;
  const args = params.arguments;
  if (!isObject(args)) return invalidParams(id, `\`arguments\` must be an object, not ${kindOf(args)}`);
  if (Object.hasOwn(args, "__proto__")) {
    const name = typeof params.name === "string" ? params.name : "";
    const result = toolError(
      `Invalid arguments for tool "${name}": the key \`__proto__\` is not allowed; remove it`,
    );
    return { jsonrpc: "2.0", id, result } as JSONRPCMessage;
  }
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}

function invalidParams(id: RequestId, problem: string): JSONRPCMessage {
  return { jsonrpc: "2.0", id, error: { code: -32602, message: `Invalid params: ${problem}` } };
}
