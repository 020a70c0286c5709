import type { InjectionToken } from "tsyringe";
import { DEFAULT_MAX_GROUPS } from "../aggregate/query-groups.js";
import { DEFAULT_INPUT_LIMITS, type McpAppOptions } from "../app/app-options.js";
import { acquireAll, awaitReady } from "../app/lifecycle.js";
import { McpApp } from "../app/mcp-app.js";
import { Budget } from "../budget/budget.capability.js";
import { BUDGET_STAGE, type BudgetStageDeps } from "../budget/budget.stage.js";
import { buildRegistry, type ResolvedService } from "../builder/build-registry.js";
import { OptionChecker, TEXT_FORMATS } from "../builder/check-options.js";
import type { DeclaredService } from "../builder/declared-service.js";
import type { Registry } from "../builder/registry.js";
import { checkAppInterceptors, isInterceptorClass } from "../builder/resolve-specs.js";
import { scanService } from "../builder/scan-service.js";
import { CACHE_STAGE, type CacheStageDeps } from "../cache/cache.stage.js";
import { CacheInvalidator } from "../cache/cache-invalidator.js";
import { CacheTrust } from "../cache/cache-trust.js";
import type { ResultCache } from "../cache/result-cache.js";
import { SingleFlight } from "../cache/single-flight.js";
import { Catalogue } from "../catalogue/catalogue.js";
import { CATALOGUE } from "../catalogue/catalogue-control.js";
import { checkCatalogueOptions } from "../catalogue/catalogue-options.js";
import { SearchTools, searchToolsService } from "../catalogue/search-tools.service.js";
import { type AppContainer, createAppContainer } from "../container/app-container.js";
import { collectModuleGraph } from "../container/module-graph.js";
import { EphemeralResources } from "../ephemeral/ephemeral-resources.js";
import { settingsForStorage } from "../ephemeral/ephemeral-settings.js";
import { SCAN_DEFAULTS } from "../ephemeral/query-scan.js";
import { resourceHandle } from "../ephemeral/resource-handle.js";
import { EphemeralResourceTools } from "../ephemeral/resource-tools.js";
import { resourceToolsService } from "../ephemeral/resource-tools.service.js";
import { SPILL_STAGE, type SpillStageDeps } from "../ephemeral/spill.stage.js";
import { FrugalConfigError } from "../errors/config-error.js";
import { reportUndelivered } from "../events/undelivered.js";
import type { Logger } from "../logging/logger.js";
import type { TextFormat } from "../metadata/definitions.js";
import { metadataStore } from "../metadata/store.js";
import { AppMetrics } from "../metrics/app-metrics.js";
import { CursorCodec } from "../pagination/cursor-codec.js";
import { createKeyring } from "../pagination/cursor-keys.js";
import type { Capability } from "../pipeline/capability.js";
import type { Interceptor, InterceptorRef } from "../pipeline/interceptor.js";
import type { AppRuntime } from "../protocol/app-runtime.js";
import { callerOfContext } from "../protocol/calls/caller.js";
import { declaredResourceReader, findDeclaredResource } from "../protocol/operations/declared-resources.js";
import type { ResourceStorage } from "../storage/storage.js";
import type { TokenCounter } from "../tokenizer/token-counter.js";
import { CACHE, CLOCK, EVENT_BUS, LOGGER, SESSION_STORE, STORAGE, TOKEN_COUNTER } from "../tokens.js";
import { startEventSources } from "./event-sources.js";
import { frameworkProviders } from "./framework-providers.js";
import { BUILT_IN_CAPABILITIES, pipelineStages } from "./pipeline-stages.js";
import { queryCursors } from "./query-cursors.js";
import {
  budgetsResources,
  declaresEphemeral,
  usesBudgets,
  usesPagination,
  writesPageTables,
} from "./registry-facts.js";

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
    const appBudget = checkAppBudget(options.budget);
    const appText = checkAppText(options.text);
    const appInterceptorTypes = checkAppInterceptors(options.interceptors);
    // Made before the container, which provides its control (`CATALOGUE`); attached to the registry once built.
    const catalogue = new Catalogue(checkCatalogueOptions(options.catalogue));
    // Interceptors are singletons of the app's container like services: one instance per
    // app, shared with anything that injects the class, closed with the app.
    const appContainer = createAppContainer(
      [
        ...frameworkProviders(),
        ...graph.providers,
        ...(options.providers ?? []),
        { provide: CATALOGUE, useValue: catalogue.control },
      ],
      [...graph.services, ...declaredInterceptors(graph.services, appInterceptorTypes)],
      { listedBy: graph.listedBy },
    );
    const logger = appContainer.resolve(LOGGER);
    const clock = appContainer.resolve(CLOCK);
    // Set once the registry exists. An event the app fails to emit (`@Invalidates`,
    // `ctx.events`, an outside source) still drops what it would have invalidated.
    let invalidatorOf: CacheInvalidator | undefined;
    const events = reportUndelivered(appContainer.resolve(EVENT_BUS), (name) =>
      invalidatorOf?.undelivered(name),
    );
    const counter = appContainer.resolve(TOKEN_COUNTER) as TokenCounter;
    const keyring = createKeyring(options.cursorSecret);
    const storage = appContainer.resolve(STORAGE) as ResourceStorage;
    // The quota of all owners defaults to what the storage can hold (MemoryStorage's maxBytes).
    const ephemeral = new EphemeralResources(
      storage,
      clock,
      logger,
      settingsForStorage(options.ephemeral, storage),
    );
    const resourceTools = {
      read: options.ephemeral?.readToolName ?? "read_resource",
      search: options.ephemeral?.searchToolName ?? "search_resource",
      query: options.ephemeral?.queryToolName ?? "query_resource",
    };
    const cursors = new CursorCodec({
      keyring,
      clock,
      ttlMs: options.cursorTtlMs ?? 24 * 60 * 60 * 1000,
      encrypt: options.encryptCursors ?? false,
      maxLength: options.maxCursorLength ?? 1024,
    });
    // The tools that read any resource in slices: for stored results, and for declared
    // resources a budget may refuse whole (the refusal points to them).
    const withResourceTools =
      options.ephemeral?.tools === true ||
      declaresEphemeral(graph.services) ||
      budgetsResources(graph.services, appBudget);
    const metrics = new AppMetrics(counter);
    const flights = new SingleFlight();
    const trust = new CacheTrust();
    const cache = appContainer.resolve(CACHE) as ResultCache;
    // What the app's own capabilities resolve besides the container's providers.
    const appParts = new Map<unknown, unknown>([
      [EVENT_BUS, events],
      [CACHE_STAGE, { cache, clock, flights, metrics, logger, trust } satisfies CacheStageDeps],
      [SPILL_STAGE, { resources: ephemeral, counter, tools: resourceTools } satisfies SpillStageDeps],
      [
        BUDGET_STAGE,
        {
          counter,
          metrics,
          logger,
          readTool: withResourceTools ? resourceTools.read : undefined,
        } satisfies BudgetStageDeps,
      ],
    ]);
    const interceptorOf = interceptorFactory(appContainer);
    const appInterceptors = appInterceptorTypes.map(interceptorOf);
    const stages = pipelineStages({
      logger,
      clock,
      metrics,
      inputLimits: { ...DEFAULT_INPUT_LIMITS, ...options.inputLimits },
      appInterceptors,
      interceptorOf,
      bus: events,
      cursors,
      counter,
      aggregate: options.aggregate,
    });

    // The resource tools read declared resources through the registry they are part of.
    let built: Registry | undefined;
    const builtRegistry = () => {
      if (!built) throw new Error("the registry is read before it was built");
      return built;
    };
    const services: Array<ResolvedService | DeclaredService> = resolveServices(appContainer, graph.services);
    if (withResourceTools) {
      services.push(
        resourceToolsService(
          new EphemeralResourceTools(
            ephemeral,
            counter,
            appBudget,
            declaredResourceReader(builtRegistry),
            clock,
            {
              counter,
              cursors: queryCursors(cursors),
              bounds: {
                maxItems: options.aggregate?.maxScanItems ?? SCAN_DEFAULTS.maxItems,
                maxMs: options.aggregate?.maxScanMs ?? SCAN_DEFAULTS.maxMs,
              },
              maxGroups: options.aggregate?.maxGroups ?? DEFAULT_MAX_GROUPS,
              tool: resourceTools.query,
            },
          ),
          resourceTools,
        ),
      );
    }
    if (catalogue.settings.search)
      services.push(
        searchToolsService(new SearchTools(catalogue, callerOfContext), catalogue.searchToolName),
      );
    const registry = buildRegistry(services, {
      stages,
      capabilities: BUILT_IN_CAPABILITIES,
      // The app's `budget` option is every operation's `@Budget` unless its method or class has one.
      defaults:
        appBudget === undefined
          ? undefined
          : new Map([[Budget.capability as Capability, { tokens: appBudget, options: {} }]]),
      appText,
      // Capabilities emit through the app's bus, which reports what it fails to deliver.
      services: {
        resolve: (token) =>
          (appParts.has(token)
            ? appParts.get(token)
            : appContainer.resolve(token as InjectionToken<never>)) as never,
        logger,
      },
    });
    built = registry;
    catalogue.attach(registry, events, logger);
    // A URI a declared resource or template serves cannot be chosen for an ephemeral one.
    ephemeral.isDeclaredUri = (uri) => findDeclaredResource(registry, uri) !== undefined;
    if (keyring.weak)
      logger.warn("a cursorSecret is shorter than 16 bytes; use a long random secret in production");
    if (keyring.ephemeral && usesPagination(registry)) {
      logger.warn(
        "no cursorSecret: cursors are signed with a random per-process key, so they will not survive a restart or work across instances",
      );
    }

    const invalidator = new CacheInvalidator(registry, cache, flights, metrics, logger, trust);
    invalidatorOf = invalidator;
    invalidator.start(events);
    const readyTimeoutMs = options.readyTimeoutMs ?? 500;
    // Built now, so its connection is awaited below and closed with the app.
    appContainer.resolve(SESSION_STORE);
    acquireAll(appContainer.instances);
    // One bound for both: connections and event sources get ready side by side.
    await Promise.all([
      startEventSources(appContainer.instances, events, readyTimeoutMs, logger),
      awaitReady(appContainer.instances, readyTimeoutMs, logger),
    ]);
    // If anything counts tokens, load the tokenizer in the background: start-up does not
    // wait for it, and the first call that counts waits only for what is left of it.
    if (usesBudgets(registry) || withResourceTools || writesPageTables(registry))
      preloadTokenizer(counter, logger);
    ephemeral.startSweeping();
    const runtime: AppRuntime = {
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
    return protocol2026
      ? new protocol2026.McpApp2026(options, runtime, appContainer)
      : new McpApp(options, runtime, appContainer);
  },
};

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

function resolveServices(appContainer: AppContainer, services: readonly Function[]): ResolvedService[] {
  return services.map((serviceClass) => ({
    serviceClass,
    instance: appContainer.resolve(serviceClass as new () => object),
  }));
}

/**
 * Starts loading the counter's costly part (the BPE tables: about 190 ms and 50 MB) without
 * waiting for it. A failure is logged here; `count` then tries again and fails the call.
 */
function preloadTokenizer(counter: TokenCounter, logger: Logger): void {
  counter.load?.().catch((error: unknown) => {
    logger.warn("loading the tokenizer failed; calls that count tokens will try again", error);
  });
}

/** The app's `text` option: `"auto"` or `"json"`, like `@Tool`'s. */
function checkAppText(text: unknown): TextFormat | undefined {
  if (text === undefined) return undefined;
  return new OptionChecker("McpFactory.create options").oneOf("`text`", text, TEXT_FORMATS);
}

/** The app's `budget` option must be a positive whole number, like `@Budget`'s. */
function checkAppBudget(budget: unknown): number | undefined {
  if (budget === undefined) return undefined;
  return new OptionChecker("McpFactory.create options").positiveInteger("`budget`", budget, "budget: 2000");
}

/** Builds each interceptor class once per app with the app's container (constructor injection). */
function interceptorFactory(appContainer: AppContainer): (type: InterceptorRef) => Interceptor {
  const built = new Map<InterceptorRef, Interceptor>();
  return (type) => {
    // An instance the user built is used as it is.
    if (typeof type !== "function") return type;
    let instance = built.get(type);
    if (!instance) {
      instance = appContainer.resolve(type as unknown as InjectionToken<Interceptor>);
      built.set(type, instance);
    }
    return instance;
  };
}

/** Every interceptor class the app's services and options name (invalid ones are refused later, by name). */
function declaredInterceptors(services: readonly Function[], appWide: readonly unknown[]): Function[] {
  const found = new Set<unknown>(appWide);
  for (const service of services) {
    for (const type of metadataStore.service(service)?.interceptors ?? []) found.add(type);
    for (const member of scanService(service))
      for (const type of member.metadata.interceptors ?? []) found.add(type);
  }
  return [...found].filter(isInterceptorClass);
}
