import { ErrorCode } from "@modelcontextprotocol/sdk/types.js";

/** JSON-RPC code for a missing resource; the SDK has no constant for it. */
export const RESOURCE_NOT_FOUND = -32002;

/**
 * A JSON-RPC error to answer a request with. Unlike the SDK's `McpError`, its message is
 * sent as is (the SDK client adds its own "MCP error <code>:" prefix, so `McpError`'s
 * built-in prefix would appear twice).
 *
 * @example
 * ```ts
 * throw new ProtocolError(-32602, "limit must be at most 50", { max: 50 });
 * ```
 */
export class ProtocolError extends Error {
  override readonly name = "ProtocolError";
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/**
 * `-32002` with the URI in `data`, as the MCP specification asks; throw it from a
 * resource handler when the thing the URI names does not exist.
 *
 * @example
 * ```ts
 * const article = this.repo.get(site, slug);
 * if (!article) throw resourceNotFound(`articles://${site}/${slug}`);
 * ```
 */
export function resourceNotFound(uri: string): ProtocolError {
  return new ProtocolError(RESOURCE_NOT_FOUND, `Resource not found: ${uri}`, { uri });
}

/** `-32602`: the request's parameters are wrong; `data` says what to do instead. */
export function invalidParams(message: string, data?: unknown): ProtocolError {
  return new ProtocolError(ErrorCode.InvalidParams, message, data);
}

/** Errors that must travel to the client as protocol errors rather than `isError` results. */
export function isProtocolError(error: unknown): error is Error {
  return error instanceof ProtocolError || (error instanceof Error && error.name === "McpError");
}
