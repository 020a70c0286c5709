import { randomUUID } from "node:crypto";
import type { ClientCapabilities } from "@modelcontextprotocol/sdk/types.js";
import type { McpRequestContext, Server, ServerContext } from "@modelcontextprotocol/server";
import type { CallOutcome } from "../../pipeline/call-outcome.js";
import { type CapturedRequest, installV2Handler, projectToolResult } from "../../sdk/sdk-v2-adapter.js";
import type { AppRuntime } from "../app-runtime.js";
import type { RequestExtra } from "../calls/call-context.js";
import { withCallId } from "../calls/call-id.js";
import { outcomeOf } from "../calls/request-outcomes.js";
import type { OperationTable, ProtocolOperation } from "../operations/operation.js";
import { newSession, type Session } from "../session.js";
import { type CompletedStates, errorAnswer, repeatedAnswer } from "./completed-states.js";
import type { ModernAsk, Replay } from "./input-replay.js";
import { extraOf } from "./v2-request.js";
import type { V2Sdk } from "./v2-sdk.js";

/** How the server introduces itself in the handshake (the app's `name`, `version`, `instructions`). */
interface ServerIdentity {
  readonly name: string;
  readonly version: string;
  readonly instructions?: string | undefined;
}

/** What the 2026 registrar needs from the app around it. */
interface V2Host {
  /** True once the app is closing: requests are refused with a "shutting down" error. */
  readonly draining: boolean;
  /**
   * A serving unit (one 2026 request, one stdio connection) started or ended, so `close()` can
   * drain it; a 2025-era unit (a stdio connection) is notified of its subscriptions through `server`.
   */
  opened(session: Session, server: Server, era: "legacy" | "modern"): void;
  closed(session: Session): void;
}

/**
 * The 2026-07-28 registrar on the SDK v2 packages: a factory of low-level v2 `Server`s (one
 * per 2026-07-28 HTTP request, one per stdio connection) on which it installs the app's
 * operation table directly, by method: the same operations, registry, pipeline and
 * providers as the 2025 registrar, with only the request context adapted at the edge.
 */
export function createV2ServerFactory(
  runtime: AppRuntime,
  operations: OperationTable,
  options: ServerIdentity,
  sdk: V2Sdk,
  host: V2Host,
  ask: ModernAsk,
  completed: CompletedStates,
): (context: McpRequestContext) => Server {
  const capabilities = {
    tools: { listChanged: true },
    resources: { subscribe: true, listChanged: true },
    prompts: { listChanged: true },
    logging: {},
    completions: {},
  };
  const outputSchemaOf = (name: unknown) =>
    runtime.registry.tools.get(String(name))?.definition.listing.outputSchema;
  const reportSettleFailure = (error: unknown): void => {
    runtime.logger.warn(
      "recording the answer of a request state failed; a repeated submission is refused until it expires",
      error,
    );
  };

  return ({ era }) => {
    const server = newServer(sdk, options, capabilities);
    const unit = openUnit(server, host, era);
    /** A `tools/call` result goes through the SDK's codec for the served era; others as they are. */
    const answer = (method: string, request: CapturedRequest, result: unknown) =>
      method === "tools/call"
        ? projectToolResult(server, result, outputSchemaOf(request.params?.name))
        : result;
    for (const { method, handle } of operations) {
      const handler: ProtocolOperation["handle"] = handle;
      installV2Handler(server, method, async (request, ctx) => {
        if (host.draining) throw shuttingDown();
        if (era === "legacy")
          return answer(method, request, await handler(unit, request, extraOf(ctx, era, noAsk)));
        // Verifies the request state's binding first: another caller's attempt never uses it up.
        const replay = ask(request, ctx);
        return completeOnce(completed, replay, reportSettleFailure, () =>
          runReplayed(
            replay,
            ctx,
            (extra) => handler(unit, request, extra),
            (result, extra) => withCacheHints(method, answer(method, request, result), outcomeOf(extra)),
          ),
        );
      });
    }
    return server;
  };
}

/** A low-level v2 server that introduces itself as the app and declares `capabilities`. */
function newServer(sdk: V2Sdk, options: ServerIdentity, capabilities: Record<string, object>): Server {
  return new sdk.server.Server(
    { name: options.name, version: options.version },
    {
      capabilities,
      ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
    },
  );
}

/** The session of `server`'s serving unit, announced to `host` now and when the server closes. */
function openUnit(server: Server, host: V2Host, era: "legacy" | "modern"): Session {
  const unit = newUnitSession(() => server.getClientCapabilities());
  host.opened(unit, server, era);
  server.onclose = () => {
    unit.lifetime.abort(new Error("session closed"));
    host.closed(unit);
  };
  return unit;
}

/**
 * Runs a 2026-07-28 request's handler with its questions replayed. A question not answered
 * yet ends the call with the input-required result, whether the handler returned or threw:
 * it may have swallowed the rejection that stopped it.
 */
async function runReplayed(
  replay: Replay,
  ctx: ServerContext,
  handle: (extra: RequestExtra) => unknown,
  finish: (result: unknown, extra: RequestExtra) => unknown,
): Promise<unknown> {
  const extra = withCallId(
    extraOf(ctx, "modern", (question, key) => replay.ask(question, key)),
    () => replay.callId,
  );
  let result: unknown;
  try {
    result = await handle(extra);
  } catch (error) {
    if (replay.pending) return replay.inputRequired();
    throw error;
  }
  if (replay.pending) return replay.inputRequired();
  return finish(result, extra);
}

/**
 * Runs a request whose state was answered at most once: a repeated submission gets the
 * first answer (or error) instead of running the handler again. A request without state
 * (a first round) just runs.
 */
async function completeOnce(
  completed: CompletedStates,
  replay: Replay,
  reportSettleFailure: (error: unknown) => void,
  run: () => Promise<unknown>,
): Promise<unknown> {
  if (replay.stateId === undefined) return run();
  const completion = await completed.claim(replay.stateId, replay.principal);
  if (completion.kind === "answered") return repeatedAnswer(completion.answer);
  let result: unknown;
  try {
    result = await run();
  } catch (error) {
    await completion.settle(errorAnswer(error)).catch(reportSettleFailure);
    throw error;
  }
  await completion.settle({ result }).catch(reportSettleFailure);
  return result;
}

/**
 * The 2026-07-28 cache hints of a `resources/read` that `@Cached` served or stored: `ttlMs`
 * is what is left of the entry's life, `cacheScope` is "public" for a global entry and
 * "private" for an owner's. Without an entry the SDK's default stays (`ttlMs` 0, private).
 */
function withCacheHints(method: string, result: unknown, outcome: CallOutcome | undefined): unknown {
  if (method !== "resources/read" || outcome?.freshForMs === undefined) return result;
  return Object.assign({}, result, {
    ttlMs: Math.max(0, Math.floor(outcome.freshForMs)),
    cacheScope: outcome.sharedAcrossOwners ? "public" : "private",
  });
}

/** A serving unit's session, whose client declared what its v2 server's handshake (or envelope) says. */
function newUnitSession(clientCapabilities: () => ClientCapabilities | undefined): Session {
  const id = randomUUID();
  return newSession(() => id, clientCapabilities);
}

/** Legacy requests push their questions to the client; they never reach a replay. */
function noAsk(question: { method: string }): Promise<unknown> {
  return Promise.reject(new Error(`${question.method} has no replay on a 2025 request`));
}

function shuttingDown(): Error {
  return Object.assign(
    new Error("Server is shutting down: this request was not run; send it again after the restart"),
    {
      code: -32000,
    },
  );
}
