import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";

/**
 * DEMO ONLY: bearer tokens and the scopes they grant. A real deployment verifies tokens
 * with its identity provider (the SDK's `requireBearerAuth`, or a gateway) and never ships
 * secrets in source.
 */
export const DEMO_TOKENS: Readonly<Record<string, Omit<AuthInfo, "token">>> = {
  "demo-admin": { clientId: "admin", scopes: ["config:write", "metrics:write"] },
  "demo-reader": { clientId: "reader", scopes: [] },
};

/** The auth info of an `Authorization: Bearer <token>` header; `null` for an unknown token. */
export function authenticate(header: string | undefined): AuthInfo | undefined | null {
  if (header === undefined) return undefined;
  const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
  const known = token !== undefined && Object.hasOwn(DEMO_TOKENS, token) ? DEMO_TOKENS[token] : undefined;
  return token && known ? { token, ...known } : null;
}

/**
 * Wraps the MCP HTTP handler: a request without `Authorization` is anonymous (it may read,
 * the scope checks refuse its writes); one with an unknown token gets 401; a known token's
 * auth info rides on `req.auth`, which the SDK hands to every call as `ctx.auth`.
 *
 * @example
 * ```ts
 * createServer(withBearerAuth(app.httpHandler())).listen(3000, "127.0.0.1");
 * ```
 */
export function withBearerAuth(
  handler: (req: IncomingMessage & { auth?: AuthInfo }, res: ServerResponse) => Promise<void>,
  path = "/mcp",
): RequestListener {
  return (req, res) => {
    if (new URL(req.url ?? "/", "http://localhost").pathname !== path) {
      res.writeHead(404, { "content-type": "text/plain" }).end(`Not found: the MCP endpoint is ${path}\n`);
      return;
    }
    const auth = authenticate(req.headers.authorization);
    if (auth === null) {
      res
        .writeHead(401, { "content-type": "application/json", "www-authenticate": 'Bearer realm="mcp"' })
        .end(
          JSON.stringify({
            jsonrpc: "2.0",
            error: { code: -32001, message: "Unauthorized: unknown bearer token" },
            id: null,
          }),
        );
      return;
    }
    void handler(auth ? Object.assign(req, { auth }) : req, res);
  };
}
