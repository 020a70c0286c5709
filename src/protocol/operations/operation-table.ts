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
 * schemas are shared by every session and both protocol eras. Lists hold what the caller may
 * see (the app's catalogue decides).
 */
export function createOperationTable(runtime: AppRuntime): OperationTable {
  const { registry } = runtime;
  // One observer per app: it keeps each operation's statistics and span attributes.
  const observer = new CallObserver(registry, runtime.metrics, (error) =>
    runtime.logger.warn("recording a call's statistics or span failed", error),
  );
  const run = operationRunner(runtime, observer);
  const readStored = storedReadRunner(runtime, observer);
  return Object.freeze([
    ...toolOperations(runtime, run),
    ...promptOperations(runtime, run),
    ...resourceOperations(runtime, run, readStored),
    ...utilityOperations(runtime),
  ]);
}
