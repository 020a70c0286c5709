import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Resource } from "@modelcontextprotocol/sdk/types.js";
import type { AppRuntime } from "./app-runtime.js";
import { CallObserver } from "./call-observer.js";
import { utilityOperations } from "./handlers/completion-handlers.js";
import type { OperationTable } from "./handlers/operation.js";
import { promptOperations } from "./handlers/prompt-handlers.js";
import { resourceOperations } from "./handlers/resource-handlers.js";
import { toolOperations } from "./handlers/tool-handlers.js";
import { operationRunner, storedReadRunner } from "./run-operation.js";
import type { Session } from "./session.js";

/**
 * Every protocol operation of an app, built once: handlers, their closures and request
 * schemas are shared by every session and both protocol eras. List contents are computed
 * here too, once per app.
 */
export function createOperationTable(runtime: AppRuntime): OperationTable {
  const { registry } = runtime;
  const listings = {
    tools: [...registry.tools.values()].map((o) => o.definition.listing),
    prompts: [...registry.prompts.values()].map((o) => o.definition.listing),
    resources: [...registry.staticResources.values()].map((o) => o.definition.listing as Resource),
  };
  // One observer per app: it keeps each operation's statistics and span attributes.
  const observer = new CallObserver(registry, runtime.metrics, (error) =>
    runtime.logger.warn("recording a call's statistics or span failed", error),
  );
  const run = operationRunner(runtime, observer);
  const readStored = storedReadRunner(runtime, observer);
  return Object.freeze([
    ...toolOperations(runtime, run, listings.tools),
    ...promptOperations(runtime, run, listings.prompts),
    ...resourceOperations(runtime, run, readStored, listings.resources),
    ...utilityOperations(registry),
  ]);
}

/**
 * The 2025-11-25 registrar: the one place that installs request handlers on a session's own
 * SDK 1.x `Server`, one per operation of the app's table.
 */
export function installOperations(server: Server, session: Session, table: OperationTable): void {
  for (const { schema, handle } of table)
    server.setRequestHandler(schema, (request, extra) => handle(session, request, extra) as never);
}
