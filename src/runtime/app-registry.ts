import type { InjectionToken } from "tsyringe";
import { DEFAULT_MAX_GROUPS } from "../aggregate/query-groups.js";
import { DEFAULT_INPUT_LIMITS, type McpAppOptions } from "../app/app-options.js";
import { Budget } from "../budget/budget.capability.js";
import { buildRegistry, type ResolvedService } from "../builder/build-registry.js";
import type { DeclaredService } from "../builder/declared-service.js";
import type { Registry } from "../builder/registry.js";
import type { Catalogue } from "../catalogue/catalogue.js";
import { SearchTools, searchToolsService } from "../catalogue/search-tools.service.js";
import type { AppContainer } from "../container/app-container.js";
import { SCAN_DEFAULTS } from "../ephemeral/query-scan.js";
import { EphemeralResourceTools } from "../ephemeral/resource-tools.js";
import { resourceToolsService } from "../ephemeral/resource-tools.service.js";
import type { TextFormat } from "../metadata/definitions.js";
import { heldCapability } from "../pipeline/capability.js";
import type { Interceptor, InterceptorRef } from "../pipeline/interceptor.js";
import { callerOfContext } from "../protocol/calls/caller.js";
import { declaredResourceReader } from "../protocol/operations/declared-resources.js";
import { type AppParts, capabilityParts } from "./app-parts.js";
import { BUILT_IN_CAPABILITIES, pipelineStages } from "./pipeline-stages.js";
import { queryCursors } from "./query-cursors.js";

/** The app's options as `McpFactory.create` checked them before building anything. */
export interface CheckedAppOptions {
  readonly budget: number | undefined;
  readonly text: TextFormat | undefined;
  readonly catalogue: Catalogue;
}

/** The app-wide interceptors, and how the pipeline makes a declared one. */
export interface AppInterceptors {
  readonly appInterceptors: readonly Interceptor[];
  readonly interceptorOf: (type: InterceptorRef) => Interceptor;
}

/**
 * The registry of the app's services (the module graph's `services`, then the resource and
 * search tools if the app serves them), built through the app's pipeline; it throws the
 * `FrugalConfigError` of the first bad declaration.
 *
 * @example
 * ```ts
 * const registry = buildAppRegistry(parts, graph.services, options, checked, interceptors);
 * registry.tools.get("hello");
 * ```
 */
export function buildAppRegistry(
  parts: AppParts,
  serviceClasses: readonly Function[],
  options: McpAppOptions,
  checked: CheckedAppOptions,
  interceptors: AppInterceptors,
): Registry {
  const { logger, metrics, events, counter, container } = parts;
  const stages = pipelineStages({
    logger,
    metrics,
    inputLimits: { ...DEFAULT_INPUT_LIMITS, ...options.inputLimits },
    ...interceptors,
    bus: events,
    counter,
  });
  // The resource tools read declared resources through the registry they are part of.
  let built: Registry | undefined;
  const builtRegistry = () => {
    if (!built) throw new Error("the registry is read before it was built");
    return built;
  };
  const services = appServices(parts, serviceClasses, options, checked, builtRegistry);
  const resolveOwn = capabilityParts(parts, options);
  built = buildRegistry(services, {
    stages,
    capabilities: BUILT_IN_CAPABILITIES,
    // The app's `budget` option is every operation's `@Budget` unless its method or class has one.
    defaults:
      checked.budget === undefined
        ? undefined
        : new Map([[heldCapability(Budget.capability), { tokens: checked.budget, options: {} }]]),
    appText: checked.text,
    // Capabilities emit through the app's bus, which reports what it fails to deliver.
    services: {
      resolve: (token) =>
        (resolveOwn.has(token)
          ? resolveOwn.get(token)
          : container.resolve(token as InjectionToken<never>)) as never,
      logger,
    },
  });
  return built;
}

/** The module graph's services, resolved from the app's container, then the framework's own tools. */
function appServices(
  parts: AppParts,
  serviceClasses: readonly Function[],
  options: McpAppOptions,
  checked: CheckedAppOptions,
  builtRegistry: () => Registry,
): Array<ResolvedService | DeclaredService> {
  const { ephemeral, counter, clock, cursors, resourceTools } = parts;
  const services: Array<ResolvedService | DeclaredService> = resolveServices(parts.container, serviceClasses);
  if (parts.withResourceTools) {
    const reader = declaredResourceReader(builtRegistry);
    const tools = new EphemeralResourceTools(ephemeral, counter, checked.budget, reader, clock, {
      counter,
      cursors: queryCursors(cursors),
      bounds: scanBounds(options),
      maxGroups: options.aggregate?.maxGroups ?? DEFAULT_MAX_GROUPS,
      tool: resourceTools.query,
    });
    services.push(resourceToolsService(tools, resourceTools));
  }
  const { catalogue } = checked;
  if (catalogue.settings.search)
    services.push(searchToolsService(new SearchTools(catalogue, callerOfContext), catalogue.searchToolName));
  return services;
}

function resolveServices(appContainer: AppContainer, services: readonly Function[]): ResolvedService[] {
  return services.map((serviceClass) => ({
    serviceClass,
    instance: appContainer.resolve(serviceClass as new () => object),
  }));
}

/** How far `query_resource` scans a stored result, by the app's `aggregate` options. */
function scanBounds(options: McpAppOptions) {
  return {
    maxItems: options.aggregate?.maxScanItems ?? SCAN_DEFAULTS.maxItems,
    maxMs: options.aggregate?.maxScanMs ?? SCAN_DEFAULTS.maxMs,
  };
}
