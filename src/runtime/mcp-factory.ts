import type { InjectionToken } from "tsyringe";
import { DEFAULT_MAX_GROUPS } from "../aggregate/query-groups.js";
import { DEFAULT_INPUT_LIMITS, type McpAppOptions } from "../app/app-options.js";
import { McpApp } from "../app/mcp-app.js";
import { Budget } from "../budget/budget.capability.js";
import { BUDGET_STAGE, type BudgetStageDeps } from "../budget/budget.stage.js";
import { buildRegistry, type ResolvedService } from "../builder/build-registry.js";
import type { DeclaredService } from "../builder/declared-service.js";
import type { Registry } from "../builder/registry.js";
import { checkAppInterceptors } from "../builder/resolve-specs.js";
import { CACHE_STAGE, type CacheStageDeps } from "../cache/cache.stage.js";
import { CacheInvalidator } from "../cache/cache-invalidator.js";
import { CacheTrust } from "../cache/cache-trust.js";
import type { ResultCache } from "../cache/result-cache.js";
import { SingleFlight } from "../cache/single-flight.js";
import { Catalogue } from "../catalogue/catalogue.js";
import { CATALOGUE } from "../catalogue/catalogue-control.js";
import { checkCatalogueOptions } from "../catalogue/catalogue-options.js";
import { SearchTools, searchToolsService } from "../catalogue/search-tools.service.js";
import type { Clock } from "../clock/clock.js";
import { type AppContainer, createAppContainer } from "../container/app-container.js";
import { collectModuleGraph, type ModuleGraph } from "../container/module-graph.js";
import { EphemeralResources } from "../ephemeral/ephemeral-resources.js";
import { settingsForStorage } from "../ephemeral/ephemeral-settings.js";
import { SCAN_DEFAULTS } from "../ephemeral/query-scan.js";
import { resourceHandle } from "../ephemeral/resource-handle.js";
import { EphemeralResourceTools } from "../ephemeral/resource-tools.js";
import { resourceToolsService } from "../ephemeral/resource-tools.service.js";
import { SPILL_STAGE, type SpillStageDeps } from "../ephemeral/spill.stage.js";
import { FrugalConfigError } from "../errors/config-error.js";
import { reportUndelivered } from "../events/undelivered.js";
import { AppMetrics } from "../metrics/app-metrics.js";
import { CursorCodec, type CursorCodecOptions } from "../pagination/cursor-codec.js";
import { createKeyring } from "../pagination/cursor-keys.js";
import { PAGINATION_STAGES, type PaginationStageDeps } from "../pagination/pagination-stage-deps.js";
import { TailPolls } from "../pagination/tail-polls.js";
import { heldCapability } from "../pipeline/capability.js";
import type { AppRuntime } from "../protocol/app-runtime.js";
import { callerOfContext } from "../protocol/calls/caller.js";
import { declaredResourceReader, findDeclaredResource } from "../protocol/operations/declared-resources.js";
import type { ResourceStorage } from "../storage/storage.js";
import type { TokenCounter } from "../tokenizer/token-counter.js";
import { CACHE, CLOCK, EVENT_BUS, LOGGER, STORAGE, TOKEN_COUNTER } from "../tokens.js";
import { declaredInterceptors, interceptorFactory } from "./app-interceptors.js";
import { checkAppBudget, checkAppText } from "./app-option-checks.js";
import { preloadTokenizer, startProviders, warnAboutCursorSecret } from "./app-startup.js";
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
    const appContainer = appContainerOf(graph, options, catalogue, appInterceptorTypes);
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
    const resourceTools = resourceToolNames(options);
    const cursors = cursorCodec(options, keyring, clock);
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
    // One `tails` per app, shared by the two stages: where each tail's answers ended, for the next poll.
    const tails = new TailPolls();
    const pagination: PaginationStageDeps = { cursors, clock, tails, aggregate: options.aggregate, counter };
    // What the app's own capabilities resolve besides the container's providers.
    const appParts = new Map<unknown, unknown>([
      [EVENT_BUS, events],
      [PAGINATION_STAGES, pagination],
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
      metrics,
      inputLimits: { ...DEFAULT_INPUT_LIMITS, ...options.inputLimits },
      appInterceptors,
      interceptorOf,
      bus: events,
      counter,
    });

    // The resource tools read declared resources through the registry they are part of.
    let built: Registry | undefined;
    const builtRegistry = () => {
      if (!built) throw new Error("the registry is read before it was built");
      return built;
    };
    const services: Array<ResolvedService | DeclaredService> = resolveServices(appContainer, graph.services);
    if (withResourceTools) {
      const reader = declaredResourceReader(builtRegistry);
      const tools = new EphemeralResourceTools(ephemeral, counter, appBudget, reader, clock, {
        counter,
        cursors: queryCursors(cursors),
        bounds: scanBounds(options),
        maxGroups: options.aggregate?.maxGroups ?? DEFAULT_MAX_GROUPS,
        tool: resourceTools.query,
      });
      services.push(resourceToolsService(tools, resourceTools));
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
          : new Map([[heldCapability(Budget.capability), { tokens: appBudget, options: {} }]]),
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
    warnAboutCursorSecret(keyring, usesPagination(registry), logger);

    const invalidator = new CacheInvalidator(registry, cache, flights, metrics, logger, trust);
    invalidatorOf = invalidator;
    invalidator.start(events);
    await startProviders(appContainer, events, options.readyTimeoutMs ?? 500, logger);
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

/** The names of the resource tools (`read_resource`, `search_resource`, `query_resource` unless renamed). */
function resourceToolNames(options: McpAppOptions) {
  return {
    read: options.ephemeral?.readToolName ?? "read_resource",
    search: options.ephemeral?.searchToolName ?? "search_resource",
    query: options.ephemeral?.queryToolName ?? "query_resource",
  };
}

/** The app's cursor codec: signed (and encrypted, if asked) with the keyring, a day's life by default. */
function cursorCodec(
  options: McpAppOptions,
  keyring: CursorCodecOptions["keyring"],
  clock: Clock,
): CursorCodec {
  return new CursorCodec({
    keyring,
    clock,
    ttlMs: options.cursorTtlMs ?? 24 * 60 * 60 * 1000,
    encrypt: options.encryptCursors ?? false,
    maxLength: options.maxCursorLength ?? 1024,
  });
}

/** How far `query_resource` scans a stored result, by the app's `aggregate` options. */
function scanBounds(options: McpAppOptions) {
  return {
    maxItems: options.aggregate?.maxScanItems ?? SCAN_DEFAULTS.maxItems,
    maxMs: options.aggregate?.maxScanMs ?? SCAN_DEFAULTS.maxMs,
  };
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
