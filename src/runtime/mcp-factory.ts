import type { McpAppOptions } from "../app/app-options.js";
import { McpApp } from "../app/mcp-app.js";
import type { Registry } from "../builder/registry.js";
import { checkAppInterceptors } from "../builder/resolve-specs.js";
import { CacheInvalidator } from "../cache/cache-invalidator.js";
import { Catalogue } from "../catalogue/catalogue.js";
import { CATALOGUE } from "../catalogue/catalogue-control.js";
import { checkCatalogueOptions } from "../catalogue/catalogue-options.js";
import { type AppContainer, createAppContainer } from "../container/app-container.js";
import { collectModuleGraph, type ModuleGraph } from "../container/module-graph.js";
import { resourceHandle } from "../ephemeral/resource-handle.js";
import { FrugalConfigError } from "../errors/config-error.js";
import type { Interceptor, InterceptorRef } from "../pipeline/interceptor.js";
import type { AppRuntime } from "../protocol/app-runtime.js";
import { findDeclaredResource } from "../protocol/operations/declared-resources.js";
import { declaredInterceptors, interceptorFactory } from "./app-interceptors.js";
import { checkAppBudget, checkAppText } from "./app-option-checks.js";
import { type AppParts, appPartsOf } from "./app-parts.js";
import { buildAppRegistry, type CheckedAppOptions } from "./app-registry.js";
import { preloadTokenizer, startProviders, warnAboutCursorSecret } from "./app-startup.js";
import { frameworkProviders } from "./framework-providers.js";
import { usesBudgets, usesPagination, writesPageTables } from "./registry-facts.js";

/**
 * Builds apps from modules.
 *
 * @example
 * ```ts
 * const app = await McpFactory.create(AppModule, { name: "articles", version: "1.0.0" });
 * await app.listen({ transport: "stdio" });
 * ```
 */
export const McpFactory = {
  /**
   * Collects the module graph, builds a DI container of its own for this app, builds
   * every provider and service, checks every declaration (throwing a `FrugalConfigError`
   * that names the class, the method and the fix), and waits (briefly) for providers
   * that hold connections.
   */
  async create(rootModule: Function, options: McpAppOptions): Promise<McpApp> {
    // Before anything is built: a missing optional peer fails here, naming the packages.
    const protocol2026 = await loadProtocol2026(options.protocol);
    const graph = collectModuleGraph(rootModule);
    const { interceptorTypes, ...checked } = checkAppOptions(options);
    const appContainer = appContainerOf(graph, options, checked.catalogue, interceptorTypes);
    // Set once the registry exists. An event the app fails to emit (`@Invalidates`,
    // `ctx.events`, an outside source) still drops what it would have invalidated.
    let invalidatorOf: CacheInvalidator | undefined;
    const parts = appPartsOf(appContainer, graph, options, checked.budget, (name) =>
      invalidatorOf?.undelivered(name),
    );
    const { logger, events, ephemeral, cache, flights, metrics, trust } = parts;
    const interceptorOf = interceptorFactory(appContainer);
    const appInterceptors = interceptorTypes.map(interceptorOf);
    const registry = buildAppRegistry(parts, graph.services, options, checked, {
      appInterceptors,
      interceptorOf,
    });
    checked.catalogue.attach(registry, events, logger);
    // A URI a declared resource or template serves cannot be chosen for an ephemeral one.
    ephemeral.isDeclaredUri = (uri) => findDeclaredResource(registry, uri) !== undefined;
    warnAboutCursorSecret(parts.keyring, usesPagination(registry), logger);

    const invalidator = new CacheInvalidator(registry, cache, flights, metrics, logger, trust);
    invalidatorOf = invalidator;
    invalidator.start(events);
    await startProviders(appContainer, events, options.readyTimeoutMs ?? 500, logger);
    // If anything counts tokens, load the tokenizer in the background: start-up does not
    // wait for it, and the first call that counts waits only for what is left of it.
    if (usesBudgets(registry) || parts.withResourceTools || writesPageTables(registry))
      preloadTokenizer(parts.counter, logger);
    ephemeral.startSweeping();
    const runtime = appRuntime(parts, registry, invalidator, appInterceptors, checked.catalogue, options);
    return protocol2026
      ? new protocol2026.McpApp2026(options, runtime, appContainer)
      : new McpApp(options, runtime, appContainer);
  },
};

/**
 * The app-wide options checked before anything is built, in the order their errors are
 * reported; the catalogue is made here because the container provides its control (`CATALOGUE`).
 */
function checkAppOptions(options: McpAppOptions): CheckedAppOptions & { interceptorTypes: InterceptorRef[] } {
  const budget = checkAppBudget(options.budget);
  const text = checkAppText(options.text);
  const interceptorTypes = checkAppInterceptors(options.interceptors);
  const catalogue = new Catalogue(checkCatalogueOptions(options.catalogue));
  return { budget, text, interceptorTypes, catalogue };
}

/** What the registrar serves each session from: the app's built registry and the parts it shares. */
function appRuntime(
  parts: AppParts,
  registry: Registry,
  invalidator: CacheInvalidator,
  appInterceptors: readonly Interceptor[],
  catalogue: Catalogue,
  options: McpAppOptions,
): AppRuntime {
  const { events, logger, metrics, cache, ephemeral } = parts;
  return {
    registry,
    events,
    logger,
    listPageSize: options.listPageSize ?? 100,
    principalOf: options.principalOf ?? ((auth) => auth.clientId),
    metrics,
    cache,
    invalidator,
    ephemeral,
    appInterceptors,
    catalogue,
    resourceHandle: (owner, operation) => resourceHandle(ephemeral, owner, operation),
  };
}

/**
 * The 2026-07-28 registrar and the SDK v2 packages, imported only when `protocol` asks for
 * them, so the default install and cold start never touch them.
 */
async function loadProtocol2026(protocol: unknown) {
  if (protocol === undefined) return undefined;
  if (protocol !== "2026-07-28") {
    throw new FrugalConfigError(
      "McpFactory.create options",
      `\`protocol\` is ${JSON.stringify(protocol)}, which this version does not serve`,
      'use protocol: "2026-07-28", or leave it out to serve MCP up to 2025-11-25',
    );
  }
  const { McpApp2026, loadSdk2026 } = await import("../app/app-2026.js");
  await loadSdk2026();
  return { McpApp2026 };
}

/**
 * The app's own DI container: the framework's providers, the modules', then the options'
 * (later ones override). Interceptors are singletons of it like services: one instance per
 * app, shared with anything that injects the class, closed with the app.
 */
function appContainerOf(
  graph: ModuleGraph,
  options: McpAppOptions,
  catalogue: Catalogue,
  appInterceptorTypes: readonly unknown[],
): AppContainer {
  return createAppContainer(
    [
      ...frameworkProviders(),
      ...graph.providers,
      ...(options.providers ?? []),
      { provide: CATALOGUE, useValue: catalogue.control },
    ],
    [...graph.services, ...declaredInterceptors(graph.services, appInterceptorTypes)],
    { listedBy: graph.listedBy },
  );
}
