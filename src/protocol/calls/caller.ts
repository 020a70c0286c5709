import type { CatalogueCaller } from "../../metadata/definitions.js";
import type { AppRuntime } from "../app-runtime.js";
import type { Session } from "../session.js";
import type { RequestExtra } from "./call-context.js";
import { isReplayed } from "./client-questions.js";
import { ownerOf } from "./owner.js";

/**
 * The caller of a request as `visibleTo` sees it, made when first asked (most operations
 * have no rule to ask): its auth info, its owner, and its 2025 session's id (none on a
 * stateless or 2026-07-28 request, which have no session that lasts).
 */
export function callerOf(runtime: AppRuntime, session: Session, extra: RequestExtra): () => CatalogueCaller {
  let caller: CatalogueCaller | undefined;
  return () => {
    caller ??= Object.freeze({
      auth: extra.authInfo,
      owner: ownerOf(runtime, session, extra),
      sessionId: session.stateless || isReplayed(extra) ? undefined : (extra.sessionId ?? session.id()),
    });
    return caller;
  };
}
