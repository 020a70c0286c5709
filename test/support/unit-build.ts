import { Budget } from "../../src/budget/budget.capability.js";
import { type BuildOptions, buildRegistry } from "../../src/builder/build-registry.js";
import type { Registry } from "../../src/builder/registry.js";
import type { Logger } from "../../src/logging/logger.js";
import { PAGE } from "../../src/pagination/page-context.js";
import type { Capability } from "../../src/pipeline/capability.js";
import { type Invocation, newInvocation } from "../../src/pipeline/invocation.js";
import type {
  OperationDefinition,
  PromptDefinition,
  ResourceDefinition,
  ToolDefinition,
} from "../../src/pipeline/operation.js";
import type { ToolContext } from "../../src/pipeline/tool-context.js";
import { BUILT_IN_CAPABILITIES } from "../../src/runtime/pipeline-stages.js";

/** What the helpers build with: the builder's options, and the app's `budget` option (`appBudget`). */
export type UnitBuildOptions = Partial<BuildOptions> & { appBudget?: number | undefined };

/** A logger that keeps what it was told, by level, for assertions. */
export function recordingLogger(): Logger & {
  lines: Array<{ level: string; message: string; details: unknown }>;
} {
  const lines: Array<{ level: string; message: string; details: unknown }> = [];
  const at = (level: string) => (message: string, details?: unknown) => {
    lines.push({ level, message, details });
  };
  return { lines, debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}

/**
 * The registry the real builder makes of decorated service classes (one instance each),
 * without any stage unless `options.stages` gives some: the definitions unit tests drive
 * stages with are the ones an app would build.
 */
export function buildServices(classes: Array<new () => object>, options: UnitBuildOptions = {}): Registry {
  const { appBudget, ...rest } = options;
  return buildRegistry(
    classes.map((serviceClass) => ({ serviceClass, instance: new serviceClass() })),
    {
      stages: [],
      capabilities: BUILT_IN_CAPABILITIES,
      ...(appBudget === undefined
        ? {}
        : { defaults: new Map([[Budget.capability as Capability, { tokens: appBudget, options: {} }]]) }),
      services: { resolve: () => undefined as never, logger: recordingLogger() },
      ...rest,
    },
  );
}

/** The built tool `name` of `serviceClass`. */
export function toolOf(
  serviceClass: new () => object,
  name: string,
  options?: UnitBuildOptions,
): ToolDefinition {
  const found = buildServices([serviceClass], options).tools.get(name);
  if (!found) throw new Error(`no tool "${name}" built`);
  return found.definition;
}

/** The built resource (static or template) declared with `uri` on `serviceClass`. */
export function resourceOf(serviceClass: new () => object, uri: string): ResourceDefinition {
  const registry = buildServices([serviceClass]);
  const found = registry.staticResources.get(uri) ?? registry.templates.find((t) => t.definition.uri === uri);
  if (!found) throw new Error(`no resource "${uri}" built`);
  return found.definition;
}

/** The built prompt `name` of `serviceClass`. */
export function promptOf(serviceClass: new () => object, name: string): PromptDefinition {
  const found = buildServices([serviceClass]).prompts.get(name);
  if (!found) throw new Error(`no prompt "${name}" built`);
  return found.definition;
}

/**
 * A fresh invocation of `definition`, with a context holding only what stages read
 * (owner, meta, signal, page); the rest of `ToolContext` is left out on purpose.
 */
export function invocationOf(
  definition: OperationDefinition,
  args: Record<string, unknown> = {},
  call: { uri?: string; meta?: Record<string, unknown>; owner?: string } = {},
): Invocation {
  const signal = new AbortController().signal;
  return newInvocation(definition, args, call.uri, (state) => {
    const ctx = {
      owner: call.owner ?? "session:test",
      sessionId: "test",
      meta: call.meta ?? {},
      get signal() {
        return state.signal ?? signal;
      },
      get page() {
        return PAGE.find(state);
      },
    };
    return ctx as unknown as ToolContext;
  });
}
