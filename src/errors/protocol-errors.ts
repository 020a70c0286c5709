import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";

/** JSON-RPC code for a missing resource; the SDK has no constant for it. */
export const RESOURCE_NOT_FOUND = -32002;

/** `-32002` with the URI in `data`, as the MCP specification asks. */
export function resourceNotFound(uri: string): McpError {
  return new McpError(RESOURCE_NOT_FOUND, `Resource not found: ${uri}`, { uri });
}

/** `-32602`: the request's parameters are wrong; `data` says what to do instead. */
export function invalidParams(message: string, data?: unknown): McpError {
  return new McpError(ErrorCode.InvalidParams, message, data);
}
