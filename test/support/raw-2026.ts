/**
 * Raw 2026-07-28 requests over Streamable HTTP, for tests that check what travels on the
 * wire (request state, log levels, input-required results) below what a client shows.
 */

/** The `_meta` envelope of a 2026-07-28 request whose client declares `capabilities`. */
export function envelope2026(capabilities: Record<string, unknown>): Record<string, unknown> {
  return {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1.0.0" },
    "io.modelcontextprotocol/clientCapabilities": capabilities,
  };
}

/** The text of a tool result's first content block. */
export function textOf(result: unknown): string | undefined {
  return ((result as { content: unknown }).content as Array<{ text?: string }>)[0]?.text;
}

/**
 * Posts one 2026-07-28 request to `url`: no session, the envelope of a client declaring
 * `capabilities` in `_meta` (a `_meta` in `params` replaces it). Reads the answer as JSON
 * or as an SSE stream: its result or error, and the log messages sent before it.
 */
export async function post2026(
  url: string,
  method: string,
  params: Record<string, unknown>,
  capabilities: Record<string, unknown>,
) {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": method,
      ...(typeof params.name === "string" ? { "mcp-name": params.name } : {}),
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method,
      params: { _meta: envelope2026(capabilities), ...params },
    }),
  });
  const messages = messagesOf(await response.text());
  return {
    status: response.status,
    session: response.headers.get("mcp-session-id"),
    body: messages.find((message) => "result" in message || "error" in message),
    logs: messages.filter((message) => message.method === "notifications/message").map((m) => m.params),
  };
}

/**
 * The JSON-RPC messages of a response body, whether plain JSON or an SSE stream of `data:` frames.
 *
 * @example
 * ```ts
 * const answer = messagesOf(await response.text()).find((m) => "result" in m || "error" in m);
 * ```
 */
export function messagesOf(text: string): any[] {
  const frames = text.trimStart().startsWith("{")
    ? [text]
    : text.split("\n").flatMap((line) => (line.startsWith("data: ") ? [line.slice(6)] : []));
  return frames.filter((frame) => frame.trim() !== "").map((frame) => JSON.parse(frame));
}
