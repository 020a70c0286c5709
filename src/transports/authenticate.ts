import type { IncomingMessage, ServerResponse } from "node:http";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import type { Logger } from "../logging/logger.js";
import { sendJsonRpcError } from "./json-rpc-response.js";

/** A Node request as the HTTP handler sees it: the SDK's `requireBearerAuth` middleware sets `auth`. */
export type AuthenticatedRequest = IncomingMessage & { auth?: AuthInfo };

/**
 * Finds who sent a request: its auth info (as the SDK's bearer-auth middleware makes it),
 * or just the principal's name, or `undefined` (or a thrown error) when the request proves
 * no identity. It may be async (a token introspection, a JWKS fetch).
 *
 * @example
 * ```ts
 * const authenticate: Authenticate = async (req) => {
 *   const token = req.headers.authorization?.replace(/^Bearer /i, "");
 *   return token ? (await verifyJwt(token)).sub : undefined; // the principal, or nobody
 * };
 * // Behind the SDK's requireBearerAuth middleware, which sets req.auth:
 * const fromMiddleware: Authenticate = (req) => req.auth;
 * ```
 */
export type Authenticate = (
  req: AuthenticatedRequest,
) => AuthInfo | string | undefined | null | Promise<AuthInfo | string | undefined | null>;

/**
 * Authentication options of the HTTP handler (`app.listen({ transport: "http", … })` and
 * `app.httpHandler(…)`).
 *
 * @example
 * ```ts
 * await app.listen({
 *   transport: "http",
 *   port: 3000,
 *   authenticate: async (req) => verifyToken(req.headers.authorization), // AuthInfo, a name, or undefined
 *   wwwAuthenticate: 'Bearer resource_metadata="https://api.example.com/.well-known/oauth-protected-resource"',
 * });
 * ```
 */
export interface AuthOptions {
  /**
   * Verifies each request before it reaches a session. Its auth info becomes `ctx.auth`
   * and its principal the owner of the call's data. A request it refuses (returns nothing
   * or throws) is answered 401 with `WWW-Authenticate`, unless `allowAnonymous` is set.
   * Without it, `req.auth` set by middleware (the SDK's `requireBearerAuth`) is used as is.
   */
  authenticate?: Authenticate | undefined;
  /** Serve requests `authenticate` refuses as anonymous ones instead of answering 401 (default false). */
  allowAnonymous?: boolean | undefined;
  /**
   * The `WWW-Authenticate` challenge of a 401 (default `Bearer realm="mcp"`); add
   * `resource_metadata="…"` to point OAuth clients at your protected-resource metadata.
   */
  wwwAuthenticate?: string | undefined;
}

/**
 * Runs `authenticate` for `req` and puts its answer on `req.auth`, where the SDK transport
 * reads it (it becomes `extra.authInfo`, then `ctx.auth`). Returns false when it answered
 * the request itself (401).
 */
export async function authenticateRequest(
  req: AuthenticatedRequest,
  res: ServerResponse,
  options: AuthOptions,
  logger: Logger,
): Promise<boolean> {
  if (!options.authenticate) return true;
  let found: AuthInfo | string | undefined | null;
  try {
    found = await options.authenticate(req);
  } catch (error) {
    // A verifier that throws on a bad token (as JWT libraries do) refuses the request.
    logger.debug("authenticate refused a request", error);
    found = undefined;
  }
  const auth = typeof found === "string" && found !== "" ? principalAuth(found) : found || undefined;
  if (auth) {
    req.auth = auth;
    return true;
  }
  delete req.auth;
  if (options.allowAnonymous) return true;
  const presented = typeof req.headers.authorization === "string";
  const challenge = options.wwwAuthenticate ?? 'Bearer realm="mcp"';
  res.setHeader("www-authenticate", presented ? `${challenge}, error="invalid_token"` : challenge);
  sendJsonRpcError(
    res,
    401,
    -32000,
    presented
      ? "Unauthorized: the credentials were not accepted; send a valid token in the Authorization header"
      : "Unauthorized: this server requires authentication; send a token in the Authorization header",
  );
  return false;
}

/** The auth info of a principal known only by name. */
function principalAuth(principal: string): AuthInfo {
  return { token: "", clientId: principal, scopes: [] };
}
