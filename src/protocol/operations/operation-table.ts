import type { Resource } from "@modelcontextprotocol/sdk/types.js";
import type { AppRuntime } from "../app-runtime.js";
import { CallObserver } from "../calls/call-observer.js";
import { operationRunner, storedReadRunner } from "../calls/run-operation.js";
import type { OperationTable } from "./operation.js";
import { promptOperations } from "./prompt-operations.js";
import { resourceOperations } from "./resource-operations.js";
import { toolOperations } from "./tool-operations.js";
import { utilityOperations } from "./utility-operations.js";

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
