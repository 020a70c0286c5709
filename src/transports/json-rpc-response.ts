import type { ServerResponse } from "node:http";

/**
 * Answers an HTTP request with a JSON-RPC error body, never an HTML page, so every client
 * can show the reason.
 */
export function sendJsonRpcError(res: ServerResponse, status: number, code: number, message: string): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const body = JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null });
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
  res.end(body);
}
