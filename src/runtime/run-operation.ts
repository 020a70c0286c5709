import type { ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import type { Operation } from "../builder/registry.js";
import { EphemeralResources } from "../ephemeral/ephemeral-resources.js";
import { type CallState, newInvocation } from "../pipeline/invocation.js";
import { type OperationDefinition, operationName } from "../pipeline/operation.js";
import { runInterceptors } from "../pipeline/stages/interceptors.stage.js";
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
    const context = (state: CallState) =>
      new CallContext(state, session, extra, owner, runtime.events, name, runtime.resourceHandle);
    const invocation = newInvocation(definition, args, uri, context);
    const pending = operation.execute(invocation);
    session.inFlight.set(pending, name);
    const forget = () => {
      session.inFlight.delete(pending);
      (invocation.ctx as CallContext).release();
    };
    pending.then(forget, forget);
    return pending;
  };
}

/** Reads a stored (ephemeral) resource for `resources/read`, with the app-wide interceptors around it. */
export type ReadStored = (
  session: Session,
  extra: RequestExtra,
  uri: string,
  read: (owner: string) => Promise<ReadResourceResult>,
) => Promise<ReadResourceResult>;

/**
 * Stored resources have no declared operation, hence no pipeline, but app-wide
 * interceptors (an authorization check, an audit log) must guard every read all the same.
 */
export function storedReadRunner(runtime: AppRuntime): ReadStored {
  const chain = runtime.appInterceptors;
  return async (session, extra, uri, read) => {
    const owner = ownerOf(runtime, session, extra);
    if (chain.length === 0) return read(owner);
    const state = { page: undefined, pageRead: false, signal: undefined };
    const ctx = new CallContext(state, session, extra, owner, runtime.events, uri, runtime.resourceHandle);
    const call = Object.freeze({
      kind: "resource" as const,
      name: uri,
      uri,
      input: {},
      ctx,
      service: EphemeralResources,
      method: "read",
    });
    try {
      return (await runInterceptors(chain, call, () => read(owner))) as ReadResourceResult;
    } finally {
      ctx.release();
    }
  };
}
