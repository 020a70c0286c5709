import { isObject } from "../common/guards.js";

/** The code the SDK answers with for a thrown error that carries none (JSON-RPC "internal error"). */
export const INTERNAL_ERROR = -32603;

/**
 * The JSON-RPC error code a thrown error is answered with, as the SDK decides it: the
 * error's own `code` when it is a whole number (an `McpError`), else internal error.
 * The conventions set `error.type` to this code, as a string.
 *
 * @example
 * ```ts
 * jsonRpcErrorCode(new McpError(-32602, "bad")); // -32602
 * jsonRpcErrorCode(new Error("boom"));           // -32603
 * ```
 */
export function jsonRpcErrorCode(error: unknown): number {
  const code = isObject(error) ? error.code : undefined;
  return typeof code === "number" && Number.isSafeInteger(code) ? code : INTERNAL_ERROR;
}
