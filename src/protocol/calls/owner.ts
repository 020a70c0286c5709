import { createHash } from "node:crypto";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import { ANONYMOUS_OWNER_PREFIX } from "../../pipeline/owners.js";
import type { AppRuntime } from "../app-runtime.js";
import type { Session } from "../session.js";
import type { RequestExtra } from "./call-context.js";
import { isReplayed } from "./client-questions.js";

/**
 * The owner of a request (see "Owners and scope"): its authenticated principal when the
 * transport supplies auth info, else its session; an anonymous 2026-07-28 request, which
 * has no session, is `anonymous:<id>` (see `pipeline/owners.ts`).
 *
 * The principal is what `principalOf` names (by default the client id). Auth info that
 * names none (no client id, or an empty one) is owned by a SHA-256 digest of its token,
 * never by the token itself: two principals never share an owner, even without client
 * ids. Auth info with neither a principal nor a token identifies nobody, so its calls are
 * owned by their session.
 */
export function ownerOf(runtime: AppRuntime, session: Session, extra: RequestExtra): string {
  const principal = extra.authInfo ? principalOwner(runtime.principalOf, extra.authInfo) : undefined;
  if (principal) return principal;
  // A 2026-07-28 request has no session to own what it stores: see pipeline/owners.ts.
  if (isReplayed(extra)) return `${ANONYMOUS_OWNER_PREFIX}${session.id()}`;
  return `session:${extra.sessionId ?? session.id()}`;
}

/**
 * `principal:<id>` for a named principal, `principal:token:<sha256 of the token>` for one
 * known only by its token. An id that could be read as one of those forms (`token:…`,
 * `id:…`) is written `principal:id:<id>`, so no client id can pose as a token digest.
 */
export function principalOwner(principalOf: (auth: AuthInfo) => string, auth: AuthInfo): string | undefined {
  const returned: unknown = principalOf(auth);
  const named =
    typeof returned === "string" ? returned : typeof returned === "number" ? String(returned) : "";
  if (named !== "") {
    return named.startsWith("token:") || named.startsWith("id:")
      ? `principal:id:${named}`
      : `principal:${named}`;
  }
  if (typeof auth.token === "string" && auth.token !== "") {
    return `principal:token:${createHash("sha256").update(auth.token).digest("hex")}`;
  }
  return undefined;
}
