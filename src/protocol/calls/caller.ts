import type { OperationCaller } from "../../metadata/definitions.js";
import type { ToolContext } from "../../pipeline/tool-context.js";
import type { AppRuntime } from "../app-runtime.js";
import type { Session } from "../session.js";
import { CallContext, type RequestExtra } from "./call-context.js";
import { isReplayed } from "./client-questions.js";
import { ownerOf } from "./owner.js";

/**
 * The caller of a request as `visibleTo` sees it, made when first asked (most operations
 * have no rule to ask): its auth info, its owner, and its 2025 session's id (none on a
 * stateless or 2026-07-28 request, which have no session that lasts).
 */
export function callerOf(runtime: AppRuntime, session: Session, extra: RequestExtra): () => OperationCaller {
  let caller: OperationCaller | undefined;
  return () => {
    caller ??= Object.freeze({
      auth: extra.authInfo,
      owner: ownerOf(runtime, session, extra),
      sessionId: lastingSessionId(session, extra),
    });
    return caller;
  };
}

/**
 * The caller of a running call, as `callerOf` makes it for its request (the built-in
 * `search_tools` asks `visibleTo` with it).
 */
export function callerOfContext(ctx: ToolContext): OperationCaller {
  const serving = CallContext.servingOf(ctx);
  return Object.freeze({
    auth: ctx.auth,
    owner: ctx.owner,
    sessionId: serving ? lastingSessionId(serving.session, serving.extra) : ctx.sessionId,
  });
}

function lastingSessionId(session: Session, extra: RequestExtra): string | undefined {
  return session.stateless || isReplayed(extra) ? undefined : (extra.sessionId ?? session.id());
}
