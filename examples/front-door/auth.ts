import type { Authenticate } from "frugal-mcp";

/**
 * DEMO ONLY: hard-coded bearer tokens. A real deployment verifies the token with its identity
 * provider (a JWT library, token introspection) and returns the principal, or `undefined`.
 */
const DEMO_TOKENS: Readonly<Record<string, string>> = { "demo-alice": "alice", "demo-bob": "bob" };

/** The principal of `Authorization: Bearer <token>`, or undefined (the front door answers 401). */
export const authenticate: Authenticate = (req) => {
  const token = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? "")?.[1];
  return token !== undefined && Object.hasOwn(DEMO_TOKENS, token) ? DEMO_TOKENS[token] : undefined;
};
