import type { IncomingMessage, ServerResponse } from "node:http";
import type { McpHttpHandler } from "@modelcontextprotocol/server";
import { fieldOf } from "../../common/guards.js";
import type { AuthenticatedRequest } from "../../transports/authenticate.js";
import type { SecondEra } from "../../transports/front-door.js";
import { type ListenedUris, listenedUrisOf } from "./listened-uris.js";
import type { V2Sdk } from "./v2-sdk.js";

/** What the 2026-07-28 era checks before the SDK sees a request; returns the refusal to send, if any. */
type ModernScreen = (req: IncomingMessage, body: unknown) => ModernRefusal | undefined;

/** A refusal of a 2026-07-28 request: its HTTP status and JSON-RPC error. */
export interface ModernRefusal {
  status: number;
  code: number;
  message: string;
  data?: unknown;
}

/**
 * The 2026-07-28 revision behind the app's front door: each request stands alone and is
 * served by its own v2 server (`createMcpHandler`, strict). It claims a POST whose headers
 * say 2026 (a 2026 `MCP-Protocol-Version`), or, when they do not say, whose body the SDK's
 * own `isLegacyRequest` does not take for 2025 traffic; a request on a session, an
 * `initialize`, GET and DELETE stay with the 2025 sessions. The front door has already
 * checked the host, the credentials (`req.auth`) and the body.
 */
export function modernEra(
  sdk: V2Sdk,
  modern: McpHttpHandler,
  maxBodyBytes: number,
  listened: ListenedUris,
  screen: ModernScreen,
): SecondEra {
  const serveModern = sdk.node.toNodeHandler(modern, { maxRequestBodySize: maxBodyBytes });
  return {
    claims: (req, body) => claims(sdk, req, body),
    async serve(req: AuthenticatedRequest, res: ServerResponse, body: unknown) {
      const refusal = screen(req, body);
      if (refusal) return refuse(res, refusal, body);
      // A listen stream's resource URIs count as subscribed while its response is open.
      const uris = listenedUrisOf(body);
      if (uris.length > 0) res.once("close", listened.add(uris));
      await serveModern(req, res, body);
    },
    close: () => modern.close(),
  };
}

/** Decides the era from the headers when they say it, else from the body, as the SDK classifies it. */
async function claims(sdk: V2Sdk, req: IncomingMessage, body: unknown): Promise<boolean> {
  const version = req.headers["mcp-protocol-version"];
  const listen = req.headers["mcp-method"] === "subscriptions/listen";
  if (typeof version === "string" && !listen) return version >= "2026";
  if (req.headers["mcp-session-id"] !== undefined) return false;
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === "string") headers.set(name, value);
  }
  const probe = new Request("http://localhost/mcp", { method: "POST", headers });
  return !(await sdk.server.isLegacyRequest(probe, body));
}

function refuse(res: ServerResponse, refusal: ModernRefusal, body: unknown): void {
  const id = fieldOf(body, "id") ?? null;
  const error = {
    code: refusal.code,
    message: refusal.message,
    ...(refusal.data === undefined ? {} : { data: refusal.data }),
  };
  const text = JSON.stringify({ jsonrpc: "2.0", id, error });
  res.writeHead(refusal.status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
  });
  res.end(text);
}
