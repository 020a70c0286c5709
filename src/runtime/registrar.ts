import type { Resource } from "@modelcontextprotocol/sdk/types.js";
import type { AppRuntime } from "./app-runtime.js";
import { CallObserver } from "./call-observer.js";
import { installUtilityHandlers } from "./handlers/completion-handlers.js";
import { installPromptHandlers } from "./handlers/prompt-handlers.js";
import { installResourceHandlers } from "./handlers/resource-handlers.js";
import { installToolHandlers } from "./handlers/tool-handlers.js";
import { operationRunner, storedReadRunner } from "./run-operation.js";
import type { Session } from "./session.js";

/**
 * The one place that talks to the SDK server: installs every request handler on a
 * session's own low-level `Server`, one protocol area per module. List contents are
 * computed once per app and shared by every session.
 */
export function createRegistrar(runtime: AppRuntime) {
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

  return function install(session: Session): void {
    installToolHandlers(session, runtime, run, listings.tools);
    installPromptHandlers(session, runtime, run, listings.prompts);
    installResourceHandlers(session, runtime, run, readStored, listings.resources);
    installUtilityHandlers(session, registry);
  };
}
