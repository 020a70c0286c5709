import { randomUUID } from "node:crypto";
import type { Server as ServerV1 } from "@modelcontextprotocol/sdk/server/index.js";
import type { McpRequestContext, Server, ServerContext } from "@modelcontextprotocol/server";
import type { CallOutcome } from "../../pipeline/invocation.js";
import type { McpAppOptions } from "../app-options.js";
import type { AppRuntime } from "../app-runtime.js";
import { createRegistrar } from "../registrar.js";
import { outcomeOf } from "../request-outcomes.js";
import type { Session } from "../session.js";
import { newSession } from "../session.js";
import { type CapturedHandler, capturingServer } from "./captured-handlers.js";
import { type CompletedStates, errorAnswer, repeatedAnswer } from "./completed-states.js";
import type { ModernAsk } from "./input-replay.js";
import { extraOf, unitView } from "./v2-request.js";
import type { V2Sdk } from "./v2-sdk.js";

/** What the 2026 registrar needs from the app around it. */
export interface V2Host {
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
 * The registrar on the SDK v2 packages: a factory of low-level v2 `Server`s (one per
 * 2026-07-28 HTTP request, one per stdio connection) whose method-keyed handlers are the
 * 1.x registrar's own, run through the same registry, pipeline and providers.
 */
export function createV2ServerFactory(
  runtime: AppRuntime,
  options: McpAppOptions,
  sdk: V2Sdk,
  host: V2Host,
  ask: ModernAsk,
  completed: CompletedStates,
): (context: McpRequestContext) => Server {
  const install = createRegistrar(runtime);
  const capabilities = {
    tools: { listChanged: true },
    resources: { subscribe: true, listChanged: true },
    prompts: { listChanged: true },
    logging: {},
    completions: {},
  };
  const outputSchemaOf = (name: unknown) =>
    runtime.registry.tools.get(String(name))?.definition.listing.outputSchema as
      | Record<string, unknown>
      | undefined;

  /** The handlers of the 1.x registrar, installed for `session` and kept by method. */
  const handlersFor = (session: Session): Map<string, CapturedHandler> => {
    const captured = capturingServer();
    Object.assign(captured.server, { getClientCapabilities: () => session.server.getClientCapabilities() });
    // A view, not a copy: state the handlers change (subscriptions, in-flight calls) stays the session's.
    install(Object.create(session, { server: { value: captured.server } }) as Session);
    return captured.handlers;
  };

  return ({ era }) => {
    const server = new sdk.server.Server(
      { name: options.name, version: options.version },
      {
        capabilities,
        ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
      },
    );
    const unit = newUnitSession();
    host.opened(unit, server, era);
    server.onclose = () => {
      unit.lifetime.abort(new Error("session closed"));
      host.closed(unit);
    };
    const handlers = handlersFor(unitView(unit, server));
    for (const [method, handler] of handlers) {
      server.setRequestHandler(
        method as never,
        (async (request: CapturedRequest, ctx: ServerContext) => {
          if (host.draining) throw shuttingDown();
          if (era === "legacy")
            return answer(method, request, await handler(request, extraOf(ctx, era, noAsk)));
          // Verifies the request state's binding first: another caller's attempt never uses it up.
          const replay = ask(request, ctx);
          const run = async () => {
            const extra = extraOf(ctx, era, (question, key) => replay.ask(question, key));
            let result: unknown;
            try {
              result = await handler(request, extra);
            } catch (error) {
              if (replay.pending) return replay.inputRequired();
              throw error;
            }
            if (replay.pending) return replay.inputRequired();
            return withCacheHints(method, answer(method, request, result), outcomeOf(extra));
          };
          if (replay.stateId === undefined) return run();
          // An answered state completes once: a repeated submission gets the first answer.
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
        }) as never,
      );
    }

    function reportSettleFailure(error: unknown): void {
      runtime.logger.warn(
        "recording the answer of a request state failed; a repeated submission is refused until it expires",
        error,
      );
    }

    /** A `tools/call` result goes through the SDK's codec for the served era; others as they are. */
    function answer(method: string, request: CapturedRequest, result: unknown) {
      return method === "tools/call"
        ? server.projectCallToolResult(result as never, outputSchemaOf(request.params?.name))
        : result;
    }
    return server;
  };
}

type CapturedRequest = { method: string; params?: Record<string, unknown> };

/**
 * The 2026-07-28 cache hints of a `resources/read` that `@Cached` served or stored: `ttlMs`
 * is what is left of the entry's life, `cacheScope` is "public" for a global entry and
 * "private" for an owner's. Without an entry the SDK's default stays (`ttlMs` 0, private).
 */
function withCacheHints(method: string, result: unknown, outcome: CallOutcome | undefined): unknown {
  if (method !== "resources/read" || outcome?.freshForMs === undefined) return result;
  return {
    ...(result as Record<string, unknown>),
    ttlMs: Math.max(0, Math.floor(outcome.freshForMs)),
    cacheScope: outcome.sharedAcrossOwners ? "public" : "private",
  };
}

/** A serving unit's session: its server is the view `unitView` supplies. */
function newUnitSession(): Session {
  const id = randomUUID();
  return newSession(() => id, undefined as unknown as ServerV1);
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
