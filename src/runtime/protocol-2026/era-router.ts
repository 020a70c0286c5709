import type { IncomingMessage, ServerResponse } from "node:http";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import type { McpHttpHandler } from "@modelcontextprotocol/server";
import { rejectForeignHost } from "../../transports/host-guard.js";
import type { HttpHandler, HttpHandlerOptions } from "../../transports/http-handler.js";
import { sendJsonRpcError } from "../../transports/json-rpc-response.js";
import { BodyTooLargeError, readBody } from "../../transports/read-body.js";
import { type ListenedUris, listenedUrisOf } from "./listened-uris.js";
import type { V2Sdk } from "./v2-sdk.js";

type NodeRequest = IncomingMessage & { auth?: AuthInfo };

/** Where one HTTP request goes: the 2026 handler (with its body when read here) or the sessionful 1.x one. */
type Route = { era: "modern"; body?: unknown } | { era: "legacy"; body?: string };

const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

/**
 * The era router in front of the HTTP handler: 2026-07-28 requests stand alone, each
 * served by its own v2 server (`createMcpHandler`, strict); 2025 requests (an
 * `initialize`, anything on a session, GET and DELETE) go to the app's sessionful 1.x
 * handler unchanged, with its session cap, idle timeout, owner checks and event stores.
 * Both see the same Host/Origin policy; the routing uses the SDK's own classification.
 */
export function eraRouter(
  sdk: V2Sdk,
  legacy: HttpHandler,
  modern: McpHttpHandler,
  options: HttpHandlerOptions,
  draining: () => boolean,
  listened: ListenedUris,
): HttpHandler {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const serveModern = sdk.node.toNodeHandler(modern, { maxRequestBodySize: maxBodyBytes });
  const handle = async (req: NodeRequest, res: ServerResponse): Promise<void> => {
    let route: Route;
    try {
      route = await routeOf(sdk, req, maxBodyBytes);
    } catch (error) {
      if (!(error instanceof BodyTooLargeError)) throw error;
      return sendJsonRpcError(
        res,
        413,
        -32600,
        `Request body is larger than ${maxBodyBytes} bytes; send less data per call`,
      );
    }
    if (route.era === "legacy")
      return legacy(route.body === undefined ? req : replaying(req, route.body), res);
    const refusal = rejectForeignHost(req, options);
    if (refusal) return sendJsonRpcError(res, 403, -32000, refusal);
    if (draining()) return sendJsonRpcError(res, 503, -32000, "Server is shutting down; connect again later");
    // A listen stream's resource URIs count as subscribed while its response is open.
    const uris = listenedUrisOf(route.body);
    if (uris.length > 0) res.once("close", listened.add(uris));
    await serveModern(req, res, route.body);
  };
  return Object.assign(handle, {
    close: async () => {
      await Promise.allSettled([legacy.close(), modern.close()]);
    },
    stats: () => legacy.stats(),
  });
}

/**
 * Decides the era from the headers when they say it (a 2026 `MCP-Protocol-Version`; a
 * 2025 one or a session id), else reads the body (an `initialize`, a `server/discover`
 * probe) and asks the SDK's `isLegacyRequest`.
 */
async function routeOf(sdk: V2Sdk, req: NodeRequest, maxBodyBytes: number): Promise<Route> {
  if (req.method !== "POST") return { era: "legacy" };
  const version = req.headers["mcp-protocol-version"];
  const listen = req.headers["mcp-method"] === "subscriptions/listen";
  if (typeof version === "string" && !listen)
    return version >= "2026" ? { era: "modern" } : { era: "legacy" };
  if (req.headers["mcp-session-id"] !== undefined) return { era: "legacy" };
  const text = await readBody(req, maxBodyBytes);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { era: "legacy", body: text }; // the 1.x handler answers the parse error
  }
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === "string") headers.set(name, value);
  }
  const probe = new Request("http://localhost/mcp", { method: "POST", headers });
  return (await sdk.server.isLegacyRequest(probe, body))
    ? { era: "legacy", body: text }
    : { era: "modern", body };
}

/** The same request with its body readable again (the router read it to classify it). */
function replaying(req: NodeRequest, body: string): NodeRequest {
  const bytes = Buffer.from(body, "utf8");
  return Object.create(req, {
    [Symbol.asyncIterator]: {
      value: async function* () {
        yield bytes;
      },
    },
  }) as NodeRequest;
}
