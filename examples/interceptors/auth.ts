import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";

/**
 * DEMO ONLY: hard-coded bearer tokens and the scopes they grant. A real server verifies
 * tokens with its identity provider (the SDK's `requireBearerAuth` middleware, or your
 * gateway) and never ships secrets in source.
 */
export const DEMO_TOKENS: Readonly<Record<string, Omit<AuthInfo, "token">>> = {
  "demo-reader": { clientId: "reader", scopes: ["notes:read"] },
  "demo-writer": { clientId: "writer", scopes: ["notes:read", "notes:write"] },
  "demo-ops": { clientId: "ops", scopes: ["metrics:read"] },
};

/** The auth info of an `Authorization: Bearer <token>` header, or undefined when it is missing or unknown. */
export function authenticate(header: string | undefined): AuthInfo | undefined {
  const token = /^Bearer\s+(\S+)$/i.exec(header ?? "")?.[1];
  const known =
    token === undefined ? undefined : Object.hasOwn(DEMO_TOKENS, token) ? DEMO_TOKENS[token] : undefined;
  return token && known ? { token, ...known } : undefined;
}

/**
 * Wraps an MCP HTTP handler (`app.httpHandler()`): requests without a known bearer token
 * get 401 and never reach MCP; the others carry `req.auth`, which the SDK hands to every
 * call as `ctx.auth` (and which makes the token's client id the owner of cached results).
 *
 * @example
 * ```ts
 * createServer(withBearerAuth(app.httpHandler())).listen(3006, "127.0.0.1");
 * ```
 */
export function withBearerAuth(
  handler: (req: IncomingMessage & { auth?: AuthInfo }, res: ServerResponse) => Promise<void>,
  path = "/mcp",
): RequestListener {
  return (req, res) => {
    if (new URL(req.url ?? "/", "http://localhost").pathname !== path) {
      res.writeHead(404, { "content-type": "text/plain" }).end("Not found");
      return;
    }
    const auth = authenticate(req.headers.authorization);
    if (!auth) {
      res
        .writeHead(401, { "content-type": "application/json", "www-authenticate": 'Bearer realm="mcp"' })
        .end(
          JSON.stringify({
            jsonrpc: "2.0",
            error: { code: -32001, message: "Unauthorized: send Authorization: Bearer <token>" },
            id: null,
          }),
        );
      return;
    }
    void handler(Object.assign(req, { auth }), res);
  };
}
