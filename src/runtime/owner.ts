import type { AppRuntime } from "./app-runtime.js";
import type { RequestExtra } from "./call-context.js";
import type { Session } from "./session.js";

/**
 * The owner of a request (see "Owners and scope"): its authenticated principal when the
 * transport supplies auth info, else its session.
 */
export function ownerOf(runtime: AppRuntime, session: Session, extra: RequestExtra): string {
  return extra.authInfo
    ? `principal:${runtime.principalOf(extra.authInfo)}`
    : `session:${extra.sessionId ?? session.id()}`;
}
