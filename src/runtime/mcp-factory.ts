import type { TokenCounter } from "../budget/token-counter.js";
import { buildRegistry, type ResolvedService } from "../builder/build-registry.js";
import { CacheInvalidator } from "../cache/cache-invalidator.js";
import type { ResultCache } from "../cache/result-cache.js";
import { SingleFlight } from "../cache/single-flight.js";
import { EphemeralResources } from "../ephemeral/ephemeral-resources.js";
import { resourceToolsService } from "../ephemeral/resource-tools.service.js";
import type { ResourceStorage } from "../ephemeral/storage.js";
import { AppMetrics } from "../metrics/app-metrics.js";
import { CursorCodec } from "../pagination/cursor-codec.js";
import { createKeyring } from "../pagination/cursor-keys.js";
import type { PipelineEnvironment } from "../pipeline/stage-factory.js";
import { DEFAULT_STAGES } from "../pipeline/stages/default-stages.js";
import { CACHE, CLOCK, EVENT_BUS, LOGGER, STORAGE, TOKEN_COUNTER } from "../tokens.js";
import { type AppContainer, createAppContainer } from "./app-container.js";
import { DEFAULT_INPUT_LIMITS, type McpAppOptions } from "./app-options.js";
import { startEventSources } from "./event-sources.js";
import { frameworkProviders } from "./framework-providers.js";
import { acquireAll, awaitReady } from "./lifecycle.js";
import { McpApp } from "./mcp-app.js";
import { collectModuleGraph } from "./module-graph.js";
import { declaresEphemeral, usesBudgets, usesPagination } from "./registry-facts.js";

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
    const graph = collectModuleGraph(rootModule);
    const appContainer = createAppContainer(
      [...frameworkProviders(), ...graph.providers, ...(options.providers ?? [])],
      graph.services,
    );
    const logger = appContainer.resolve(LOGGER);
    const clock = appContainer.resolve(CLOCK);
    const events = appContainer.resolve(EVENT_BUS);
    const keyring = createKeyring(options.cursorSecret);
    const ephemeral = new EphemeralResources(
      appContainer.resolve(STORAGE) as ResourceStorage,
      clock,
      logger,
      options.ephemeral,
    );
    const ephemeralTools = {
      read: options.ephemeral?.readToolName ?? "read_resource",
      search: options.ephemeral?.searchToolName ?? "search_resource",
    };
    const env: PipelineEnvironment = {
      resolve: appContainer.resolve,
      logger,
      metrics: new AppMetrics(),
      flights: new SingleFlight(),
      appBudget: options.budget,
      inputLimits: { ...DEFAULT_INPUT_LIMITS, ...options.inputLimits },
      cursors: new CursorCodec({
        keyring,
        clock,
        ttlMs: options.cursorTtlMs ?? 24 * 60 * 60 * 1000,
        encrypt: options.encryptCursors ?? false,
        maxLength: options.maxCursorLength ?? 1024,
      }),
      ephemeral,
      ephemeralTools,
    };

    const services = resolveServices(appContainer, graph.services);
    const withResourceTools = options.ephemeral?.tools === true || declaresEphemeral(graph.services);
    if (withResourceTools) {
      const counter = appContainer.resolve(TOKEN_COUNTER) as TokenCounter;
      const serviceClass = resourceToolsService(ephemeralTools);
      services.push({ serviceClass, instance: new serviceClass(ephemeral, counter, options.budget) });
    }
    const registry = buildRegistry(services, DEFAULT_STAGES, env);
    if (keyring.weak)
      logger.warn("a cursorSecret is shorter than 16 bytes; use a long random secret in production");
    if (keyring.ephemeral && usesPagination(registry)) {
      logger.warn(
        "no cursorSecret: cursors are signed with a random per-process key, so they will not survive a restart or work across instances",
      );
    }

    const cache = appContainer.resolve(CACHE) as ResultCache;
    const invalidator = new CacheInvalidator(registry, cache, env.flights, env.metrics, logger);
    invalidator.start(events);
    const readyTimeoutMs = options.readyTimeoutMs ?? 500;
    acquireAll(appContainer.instances);
    // One bound for both: connections and event sources get ready side by side.
    await Promise.all([
      startEventSources(appContainer.instances, events, readyTimeoutMs, logger),
      awaitReady(appContainer.instances, readyTimeoutMs, logger),
    ]);
    // Load the tokenizer now if anything counts tokens, rather than on the first call.
    if (usesBudgets(registry, options.budget) || withResourceTools) {
      await (appContainer.resolve(TOKEN_COUNTER) as TokenCounter).load?.();
    }
    ephemeral.startSweeping();
    return new McpApp(
      options,
      {
        registry,
        events,
        logger,
        listPageSize: options.listPageSize ?? 100,
        principalOf: options.principalOf ?? ((auth) => auth.clientId),
        metrics: env.metrics,
        cache,
        invalidator,
        ephemeral,
      },
      appContainer,
    );
  },
};

function resolveServices(appContainer: AppContainer, services: readonly Function[]): ResolvedService[] {
  return services.map((serviceClass) => ({
    serviceClass,
    instance: appContainer.resolve(serviceClass as new () => object),
  }));
}
