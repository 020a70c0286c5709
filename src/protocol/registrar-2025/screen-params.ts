import type { JSONRPCMessage, RequestId } from "@modelcontextprotocol/sdk/types.js";
import { nestedDeeperThan } from "../../pipeline/stages/measure-input.js";
import { toolError } from "../../results/tool-error.js";
import { asMessage } from "../../sdk/sdk1-adapter.js";
import { QUARANTINED_PROGRESS_TOKEN } from "../../transports/progress-token.js";

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
 *   refuses them the same way). In `prompts/get` arguments: `-32602`, as the validate stage
 *   answers other invalid prompt arguments.
 * - `params` or `_meta` that is not an object, or a `_meta.progressToken` that is neither a
 *   string nor an integer: `-32602`. The SDK takes such a message for no request at all and
 *   drops it, so the client would wait for an answer that never comes. (Over HTTP the body
 *   is screened by `quarantineProgressTokens` first; the SDK would answer 400 and `-32700`.)
 */
export function screenParams(
  id: RequestId,
  method: string,
  params: unknown,
  maxDepth: number,
): JSONRPCMessage | undefined {
  if (params === undefined) return undefined;
  if (!isObject(params)) return invalidParams(id, `\`params\` must be an object, not ${kindOf(params)}`);
  const meta = params._meta;
  if (meta !== undefined) {
    if (!isObject(meta)) return invalidParams(id, `\`_meta\` must be an object, not ${kindOf(meta)}`);
    if (nestedDeeperThan(meta, maxDepth)) {
      return invalidParams(id, `\`_meta\` is nested deeper than ${maxDepth} levels`);
    }
    const token = Object.hasOwn(meta, QUARANTINED_PROGRESS_TOKEN)
      ? { bad: meta[QUARANTINED_PROGRESS_TOKEN] }
      : Object.hasOwn(meta, "progressToken") && !isProgressToken(meta.progressToken)
        ? { bad: meta.progressToken }
        : undefined;
    if (token) {
      return invalidParams(
        id,
        `\`_meta.progressToken\` must be a string or an integer, not ${typeof token.bad === "number" ? token.bad : kindOf(token.bad)}; send another token or leave it out`,
      );
    }
  }
  if (
    method === "prompts/get" &&
    isObject(params.arguments) &&
    Object.hasOwn(params.arguments, "__proto__")
  ) {
    const name = typeof params.name === "string" ? params.name : "";
    return invalidParams(
      id,
      `arguments of prompt "${name}": the key \`__proto__\` is not allowed; remove it`,
    );
  }
  if (method !== "tools/call" || !("arguments" in params) || params.arguments === undefined) return undefined;
  const args = params.arguments;
  if (!isObject(args)) return invalidParams(id, `\`arguments\` must be an object, not ${kindOf(args)}`);
  if (Object.hasOwn(args, "__proto__")) {
    const name = typeof params.name === "string" ? params.name : "";
    const result = toolError(
      `Invalid arguments for tool "${name}": the key \`__proto__\` is not allowed; remove it`,
    );
    return asMessage({ jsonrpc: "2.0", id, result });
  }
  return undefined;
}

/** What the SDK accepts as a progress token (`string | integer`). */
function isProgressToken(value: unknown): boolean {
  return typeof value === "string" || Number.isSafeInteger(value);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  return `a ${typeof value}`;
}

function invalidParams(id: RequestId, problem: string): JSONRPCMessage {
  return { jsonrpc: "2.0", id, error: { code: -32602, message: `Invalid params: ${problem}` } };
}
