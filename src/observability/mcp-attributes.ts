/**
 * Attribute names of the OpenTelemetry semantic conventions for MCP (server spans and
 * `mcp.server.operation.duration`), and frugal-mcp's own. One place, so a rename in the
 * conventions (still "Development") is one edit.
 */
export const MCP_ATTRIBUTES = {
  method: "mcp.method.name",
  sessionId: "mcp.session.id",
  resourceUri: "mcp.resource.uri",
  requestId: "jsonrpc.request.id",
  toolName: "gen_ai.tool.name",
  promptName: "gen_ai.prompt.name",
  /** `execute_tool` on tool calls only, as the conventions say. */
  genAiOperation: "gen_ai.operation.name",
  errorType: "error.type",
  /** The JSON-RPC error code of a failed request, as a string. */
  statusCode: "rpc.response.status_code",
} as const;

/** frugal-mcp's own attributes, on spans and metric points. */
export const FRUGAL_ATTRIBUTES = {
  cacheHit: "frugal.cache.hit",
  pageCount: "frugal.page.count",
  tokens: "frugal.tokens",
  spilled: "frugal.spilled",
  /** The key of `app.stats().operations`: a tool or prompt name, a resource URI or template. */
  operation: "frugal.operation",
  /** A source of `resources/list` (a template, the ephemeral storage). */
  source: "frugal.source",
} as const;

/** `error.type` of a tool's `isError` result, as the conventions name it. */
export const TOOL_ERROR = "tool_error";
