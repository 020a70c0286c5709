import type { McpAppOptions } from "../app/app-options.js";
import { BUDGET_STAGE, type BudgetStageDeps } from "../budget/budget.stage.js";
import { CACHE_STAGE, type CacheStageDeps } from "../cache/cache.stage.js";
import { CacheTrust } from "../cache/cache-trust.js";
import type { ResultCache } from "../cache/result-cache.js";
import { SingleFlight } from "../cache/single-flight.js";
import type { Clock } from "../clock/clock.js";
import type { AppContainer } from "../container/app-container.js";
import type { ModuleGraph } from "../container/module-graph.js";
import { EphemeralResources } from "../ephemeral/ephemeral-resources.js";
import { settingsForStorage } from "../ephemeral/ephemeral-settings.js";
import type { ResourceToolNames } from "../ephemeral/resource-tools.service.js";
import { SPILL_STAGE, type SpillStageDeps } from "../ephemeral/spill.stage.js";
import type { EventBus } from "../events/event-bus.js";
import { reportUndelivered } from "../events/undelivered.js";
import type { Logger } from "../logging/logger.js";
import { AppMetrics } from "../metrics/app-metrics.js";
import { CursorCodec } from "../pagination/cursor-codec.js";
import { type CursorKeyring, createKeyring } from "../pagination/cursor-keys.js";
import { PAGINATION_STAGES, type PaginationStageDeps } from "../pagination/pagination-stage-deps.js";
import { TailPolls } from "../pagination/tail-polls.js";
import type { ResourceStorage } from "../storage/storage.js";
import type { TokenCounter } from "../tokenizer/token-counter.js";
import { CACHE, CLOCK, EVENT_BUS, LOGGER, STORAGE, TOKEN_COUNTER } from "../tokens.js";
import { budgetsResources, declaresEphemeral } from "./registry-facts.js";

/**
 * What one app's capabilities, tools and runtime share, each made once per app by
 * `McpFactory.create`: resolved from the app's container, or built from its options.
 */
export interface AppParts {
  readonly container: AppContainer;
  readonly logger: Logger;
  readonly clock: Clock;
  /** The container's bus, reporting what it fails to deliver. */
  readonly events: EventBus;
  readonly counter: TokenCounter;
  readonly keyring: CursorKeyring;
  readonly ephemeral: EphemeralResources;
  readonly resourceTools: ResourceToolNames;
  readonly cursors: CursorCodec;
  /** Whether the app serves the resource tools. */
  readonly withResourceTools: boolean;
  readonly metrics: AppMetrics;
  readonly flights: SingleFlight;
  readonly trust: CacheTrust;
  readonly cache: ResultCache;
}

/**
 * The parts of the app in `container`, for the module `graph` under `options` (`appBudget`
 * is its checked `budget`). `undelivered` hears each event the bus fails to deliver.
 *
 * @example
 * ```ts
 * const parts = appPartsOf(container, graph, options, undefined, (name) => invalidator?.undelivered(name));
 * parts.resourceTools.read; // "read_resource"
 * ```
 */
export function appPartsOf(
  container: AppContainer,
  graph: ModuleGraph,
  options: McpAppOptions,
  appBudget: number | undefined,
  undelivered: (name: string) => void,
): AppParts {
  const logger = container.resolve(LOGGER);
  const clock = container.resolve(CLOCK);
  const events = reportUndelivered(container.resolve(EVENT_BUS), undelivered);
  const counter = container.resolve(TOKEN_COUNTER) as TokenCounter;
  const keyring = createKeyring(options.cursorSecret);
  const storage = container.resolve(STORAGE) as ResourceStorage;
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
  const cache = container.resolve(CACHE) as ResultCache;
  return {
    container,
    logger,
    clock,
    events,
    counter,
    keyring,
    ephemeral,
    resourceTools,
    cursors,
    withResourceTools,
    metrics,
    flights,
    trust,
    cache,
  };
}

/**
 * What the app's own capabilities resolve besides the container's providers: the bus and
 * each built-in capability's stage dependencies.
 *
 * @example
 * ```ts
 * const deps = capabilityParts(parts, options);
 * deps.get(PAGINATION_STAGES); // { cursors, clock, tails, aggregate, counter }
 * ```
 */
export function capabilityParts(parts: AppParts, options: McpAppOptions): Map<unknown, unknown> {
  const { events, cursors, clock, counter, cache, flights, metrics, logger, trust, resourceTools } = parts;
  // One `tails` per app, shared by the two stages: where each tail's answers ended, for the next poll.
  const tails = new TailPolls();
  const pagination: PaginationStageDeps = { cursors, clock, tails, aggregate: options.aggregate, counter };
  return new Map<unknown, unknown>([
    [EVENT_BUS, events],
    [PAGINATION_STAGES, pagination],
    [CACHE_STAGE, { cache, clock, flights, metrics, logger, trust } satisfies CacheStageDeps],
    [SPILL_STAGE, { resources: parts.ephemeral, counter, tools: resourceTools } satisfies SpillStageDeps],
    [
      BUDGET_STAGE,
      {
        counter,
        metrics,
        logger,
        readTool: parts.withResourceTools ? resourceTools.read : undefined,
      } satisfies BudgetStageDeps,
    ],
  ]);
}

function resourceToolNames(options: McpAppOptions): ResourceToolNames {
  return {
    read: options.ephemeral?.readToolName ?? "read_resource",
    search: options.ephemeral?.searchToolName ?? "search_resource",
    query: options.ephemeral?.queryToolName ?? "query_resource",
  };
}

/** The app's cursor codec: signed (and encrypted, if asked) with the keyring, a day's life by default. */
function cursorCodec(options: McpAppOptions, keyring: CursorKeyring, clock: Clock): CursorCodec {
  return new CursorCodec({
    keyring,
    clock,
    ttlMs: options.cursorTtlMs ?? 24 * 60 * 60 * 1000,
    encrypt: options.encryptCursors ?? false,
    maxLength: options.maxCursorLength ?? 1024,
  });
}
