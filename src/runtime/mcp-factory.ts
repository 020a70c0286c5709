import { BpeTokenCounter } from "../budget/bpe-token-counter.js";
import type { TokenCounter } from "../budget/token-counter.js";
import { buildRegistry } from "../builder/build-registry.js";
import type { Registry } from "../builder/registry.js";
import { CacheInvalidator } from "../cache/cache-invalidator.js";
import { LruCache } from "../cache/lru-cache.js";
import type { ResultCache } from "../cache/result-cache.js";
import { SingleFlight } from "../cache/single-flight.js";
import { SystemClock } from "../clock/clock.js";
import type { ProviderEntry } from "../decorators/mcp-module.decorator.js";
import type { EventBus } from "../events/event-bus.js";
import { EventSource } from "../events/event-source.js";
import { InMemoryEventBus } from "../events/in-memory-event-bus.js";
import { type Logger, StderrLogger } from "../logging/logger.js";
import { AppMetrics } from "../metrics/app-metrics.js";
import { CursorCodec } from "../pagination/cursor-codec.js";
import { createKeyring } from "../pagination/cursor-keys.js";
import { DEFAULT_STAGES } from "../pipeline/stages/default-stages.js";
import { CACHE, CLOCK, EVENT_BUS, LOGGER, TOKEN_COUNTER } from "../tokens.js";
import { createAppContainer } from "./app-container.js";
import { DEFAULT_INPUT_LIMITS, type McpAppOptions } from "./app-options.js";
import { awaitReady } from "./lifecycle.js";
import { McpApp } from "./mcp-app.js";
import { collectModuleGraph } from "./module-graph.js";

/** The framework's defaults; any module provider for the same token replaces them. */
function defaultProviders(): ProviderEntry[] {
  return [
    { provide: CLOCK, useClass: SystemClock },
    { provide: EVENT_BUS, useClass: InMemoryEventBus },
    { provide: LOGGER, useClass: StderrLogger },
    { provide: CACHE, useFactory: () => new LruCache() },
    { provide: TOKEN_COUNTER, useFactory: () => new BpeTokenCounter() },
  ];
}

/**
 * Starts every `EventSource` provider (they are closed with the other providers). Like
 * `ready()`, this is bounded: a source that cannot connect is logged, and the app starts
 * without it rather than not at all.
 */
async function startEventSources(
  instances: readonly unknown[],
  bus: EventBus,
  timeoutMs: number,
  logger: Logger,
) {
  const sources = instances.filter((i): i is EventSource => i instanceof EventSource);
  await awaitReady(
    sources.map((source) => ({
      ready: () =>
        source.start(bus).catch((error: unknown) => {
          logger.error(`${source.constructor.name} could not start; its events will not arrive`, error);
        }),
    })),
    timeoutMs,
    logger,
  );
}

function usesBudgets(registry: Registry, appBudget: number | undefined): boolean {
  if (appBudget !== undefined) return true;
  const all = [
    ...registry.tools.values(),
    ...registry.staticResources.values(),
    ...registry.templates,
    ...registry.prompts.values(),
  ];
  return all.some(({ definition: d }) => d.metadata.budget || d.classMetadata.budget || d.metadata.ephemeral);
}

function usesPagination(registry: Registry): boolean {
  const all = [...registry.tools.values(), ...registry.templates];
  return all.some((operation) => operation.definition.pagination !== undefined);
}

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
    const providers = [...defaultProviders(), ...graph.providers, ...(options.providers ?? [])];
    const appContainer = createAppContainer(providers, graph.services);
    const logger = appContainer.resolve(LOGGER);
    const keyring = createKeyring(options.cursorSecret);
    const events = appContainer.resolve(EVENT_BUS);
    const metrics = new AppMetrics();
    const flights = new SingleFlight();
    const env = {
      resolve: appContainer.resolve,
      metrics,
      flights,
      appBudget: options.budget,
      logger,
      inputLimits: { ...DEFAULT_INPUT_LIMITS, ...options.inputLimits },
      cursors: new CursorCodec({
        keyring,
        clock: appContainer.resolve(CLOCK),
        ttlMs: options.cursorTtlMs ?? 24 * 60 * 60 * 1000,
        encrypt: options.encryptCursors ?? false,
        maxLength: options.maxCursorLength ?? 1024,
      }),
    };
    const services = graph.services.map((serviceClass) => ({
      serviceClass,
      instance: appContainer.resolve(serviceClass) as object,
    }));
    const registry = buildRegistry(services, DEFAULT_STAGES, env);
    if (keyring.ephemeral && usesPagination(registry)) {
      logger.warn(
        "no cursorSecret: cursors are signed with a random per-process key, so they will not survive a restart or work across instances",
      );
    }
    const cache = appContainer.resolve(CACHE) as ResultCache;
    const invalidator = new CacheInvalidator(registry, cache, flights, metrics, logger);
    invalidator.start(events);
    await startEventSources(appContainer.instances, events, options.readyTimeoutMs ?? 500, logger);
    await awaitReady(appContainer.instances, options.readyTimeoutMs ?? 500, logger);
    // Load the tokenizer now if anything is budgeted, rather than on the first call.
    if (usesBudgets(registry, options.budget))
      await (appContainer.resolve(TOKEN_COUNTER) as TokenCounter).load?.();
    return new McpApp(
      options,
      {
        registry,
        events,
        logger,
        listPageSize: options.listPageSize ?? 100,
        principalOf: options.principalOf ?? ((auth) => auth.clientId),
        metrics,
        cache,
        invalidator,
      },
      appContainer,
    );
  },
};
