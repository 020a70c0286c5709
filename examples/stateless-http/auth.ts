import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import type { Authenticate } from "../../src/transports/authenticate.js";

/**
 * DEMO ONLY: hard-coded bearer tokens. A real deployment verifies tokens with its identity
 * provider (a JWT library, token introspection) in `authenticate`, or mounts
 * `app.httpHandler({ stateless: true, authenticate: (req) => req.auth })` behind the SDK's
 * `requireBearerAuth` middleware.
 */
const DEMO_TOKENS: Readonly<Record<string, Omit<AuthInfo, "token">>> = {
  "demo-alice": { clientId: "alice", scopes: ["reports"] },
  "demo-bob": { clientId: "bob", scopes: ["reports"] },
};

/** The auth info of `Authorization: Bearer <token>`, or undefined (answered 401). */
export const authenticate: Authenticate = (req) => {
  const token = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? "")?.[1];
  const known = token !== undefined && Object.hasOwn(DEMO_TOKENS, token) ? DEMO_TOKENS[token] : undefined;
  return token && known ? { token, ...known } : undefined;
};
