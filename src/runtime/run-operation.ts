import type { Operation } from "../builder/registry.js";
import { newInvocation } from "../pipeline/invocation.js";
import { type OperationDefinition, operationName } from "../pipeline/operation.js";
import type { AppRuntime } from "./app-runtime.js";
import { CallContext, type RequestExtra } from "./call-context.js";
import { ownerOf } from "./owner.js";
import type { Session } from "./session.js";

/** Runs one operation for one request of one session, tracked so `app.close()` can drain it. */
export type RunOperation = (
  session: Session,
  operation: Operation<OperationDefinition>,
  args: Record<string, unknown>,
  extra: RequestExtra,
  uri?: string,
) => Promise<unknown>;

/** The one way every protocol area (tools, resources, prompts) runs an operation's pipeline. */
export function operationRunner(runtime: AppRuntime): RunOperation {
  return (session, operation, args, extra, uri) => {
    const owner = ownerOf(runtime, session, extra);
    const { definition } = operation;
    const name = operationName(definition);
    if (extra.authInfo) session.principals.add(owner);
    const invocation = newInvocation(
      definition,
      args,
      uri,
      (state) => new CallContext(state, session, extra, owner, runtime.events, name, runtime.resourceHandle),
    );
    const pending = operation.execute(invocation);
    session.inFlight.add(pending);
    const forget = () => session.inFlight.delete(pending);
    pending.then(forget, forget);
    return pending;
  };
}
