import type { ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import type { Operation } from "../../builder/registry.js";
import { EphemeralResources } from "../../ephemeral/ephemeral-resources.js";
import { type CallState, newInvocation } from "../../pipeline/invocation.js";
import { type OperationDefinition, operationName } from "../../pipeline/operation.js";
import { runInterceptors } from "../../pipeline/stages/interceptors.stage.js";
import { asReadResult } from "../../sdk/sdk1-adapter.js";
import type { AppRuntime } from "../app-runtime.js";
import type { Session } from "../session.js";
import { CallContext, type RequestExtra } from "./call-context.js";
import type { CallObserver } from "./call-observer.js";
import { ownerOf } from "./owner.js";
import { recordOutcome } from "./request-outcomes.js";

/** Runs one operation for one request of one session, tracked so `app.close()` can drain it. */
export type RunOperation = (
  session: Session,
  operation: Operation<OperationDefinition>,
  args: Record<string, unknown>,
  extra: RequestExtra,
  uri?: string,
) => Promise<unknown>;

/**
 * The one way every protocol area (tools, resources, prompts) runs an operation's
 * pipeline, observed (statistics, trace span, metrics) by `observer`.
 */
export function operationRunner(runtime: AppRuntime, observer: CallObserver): RunOperation {
  return (session, operation, args, extra, uri) => {
    const owner = ownerOf(runtime, session, extra);
    const { definition } = operation;
    const name = operationName(definition);
    if (extra.authInfo) session.principals.add(owner);
    const context = (state: CallState) =>
      new CallContext(state, session, extra, owner, runtime.events, name, runtime.resourceHandle);
    const invocation = newInvocation(definition, args, uri, context);
    recordOutcome(extra, invocation.outcome);
    const call = { session, extra, owner, uri, args, outcome: invocation.outcome };
    const forget = () => {
      session.inFlight.delete(pending);
      if (invocation.ctx instanceof CallContext) invocation.ctx.release();
    };
    const execute = () => operation.execute(invocation);
    const pending = observer.observe(observer.probe(definition), call, execute, forget);
    session.inFlight.set(pending, name);
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
export function storedReadRunner(runtime: AppRuntime, observer: CallObserver): ReadStored {
  const chain = runtime.appInterceptors;
  const guarded = async (
    session: Session,
    extra: RequestExtra,
    uri: string,
    owner: string,
    read: (owner: string) => Promise<ReadResourceResult>,
  ) => {
    if (chain.length === 0) return read(owner);
    const state = { signal: undefined, slots: undefined };
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
      return asReadResult(await runInterceptors(chain, call, () => read(owner)));
    } finally {
      ctx.release();
    }
  };
  return async (session, extra, uri, read) => {
    const owner = ownerOf(runtime, session, extra);
    const call = { session, extra, owner, uri, args: undefined, outcome: undefined };
    const probe = observer.storedProbe(uri);
    return asReadResult(await observer.observe(probe, call, () => guarded(session, extra, uri, owner, read)));
  };
}
