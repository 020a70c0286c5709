import type { Registry } from "../builder/registry.js";
import type { BusEvent, DeliveryChange, EventBus } from "../events/event-bus.js";
import type { Logger } from "../logging/logger.js";
import type { AppMetrics } from "../metrics/app-metrics.js";
import { specOf } from "../pipeline/capability.js";
import type { OperationDefinition, ResourceDefinition } from "../pipeline/operation.js";
import type { InvalidationRule } from "./cache-spec.js";
import { CacheTrust } from "./cache-trust.js";
import { Cached } from "./cached.capability.js";
import type { EntryMatcher, ResultCache } from "./result-cache.js";
import type { SingleFlight } from "./single-flight.js";

/** What the invalidator needs from the app to tell subscribed sessions that a resource changed. */
export interface ResourceNotifier {
  subscribedUris(): Iterable<string>;
  notifyResourceUpdated(uri: string): Promise<void>;
}

interface Rule {
  readonly definition: OperationDefinition;
  readonly match?: (input: unknown, payload: unknown) => boolean;
}

/** First and longest wait between attempts to drop namespaces in doubt. */
const RETRY_MIN_MS = 100;
const RETRY_MAX_MS = 1_000;

/**
 * Turns events into invalidations: for each `invalidateOn` rule that names the event, it
 * marks running misses stale (their results stay out of the cache), drops the stored
 * entries (all, or those the rule's matcher accepts), and, for resources, notifies every
 * session subscribed to an affected URI.
 *
 * It also restores consistency after an invalidation was lost. When the cache fails to
 * drop entries, when an event cannot be emitted, or when the bus reports that events from
 * other instances may have been missed, the namespaces concerned are put in doubt (see
 * `CacheTrust`: calls to them go to the source) and dropped whole, retrying until the
 * cache answers; only then are they served from the cache again.
 */
export class CacheInvalidator {
  private readonly rules = new Map<string, Rule[]>();
  /** Every namespace an event can invalidate, with its operation. */
  private readonly namespaces = new Set<string>();
  private readonly operations = new Map<string, OperationDefinition>();
  private unsubscribe: (() => void) | undefined;
  private unwatch: (() => void) | undefined;
  private notifier: ResourceNotifier | undefined;
  private retry: NodeJS.Timeout | undefined;
  private retryMs = RETRY_MIN_MS;
  private draining = false;
  private stopped = false;
  private doubtSince: number | undefined;

  constructor(
    registry: Registry,
    private readonly cache: ResultCache,
    private readonly flights: SingleFlight,
    private readonly metrics: AppMetrics,
    private readonly logger: Logger,
    /** Shared with the cache stage, which consults it on every call. */
    readonly trust: CacheTrust = new CacheTrust(),
  ) {
    const operations = [
      ...registry.tools.values(),
      ...registry.staticResources.values(),
      ...registry.templates,
      ...registry.prompts.values(),
    ];
    for (const { definition } of operations) {
      for (const rule of specOf(definition, Cached.capability)?.invalidateOn ?? [])
        this.addRule(definition, rule);
    }
  }

  /** True when some operation is cached with `invalidateOn`. */
  get hasRules(): boolean {
    return this.rules.size > 0;
  }

  start(bus: EventBus): void {
    if (!this.hasRules) return;
    this.stopped = false;
    this.unsubscribe = bus.subscribe((event) => this.onEvent(event));
    this.unwatch = bus.onDeliveryChange?.((change) => this.onDeliveryChange(change));
  }

  /** Lets the invalidator notify subscribed sessions (set by the app once it exists). */
  attach(notifier: ResourceNotifier): void {
    this.notifier = notifier;
  }

  stop(): void {
    this.stopped = true;
    this.unsubscribe?.();
    this.unwatch?.();
    clearTimeout(this.retry);
    this.retry = undefined;
  }

  /**
   * An event this instance failed to emit (its local delivery, or its delivery to other
   * instances, may be lost): drops whole the namespaces it would have invalidated.
   */
  undelivered(eventName: string): void {
    const rules = this.rules.get(eventName);
    if (!rules) return;
    for (const { definition } of rules) this.doubt(definition.where);
    this.logger.warn(
      `"${eventName}" may not have been delivered; dropping what it invalidates (${[...new Set(rules.map((r) => r.definition.where))].join(", ")})`,
    );
    this.scheduleDrop(0);
  }

  private addRule(definition: OperationDefinition, rule: InvalidationRule): void {
    const event = typeof rule === "string" ? rule : rule.event;
    const list = this.rules.get(event) ?? [];
    list.push(typeof rule === "string" ? { definition } : { definition, match: rule.match });
    this.rules.set(event, list);
    this.namespaces.add(definition.where);
    this.operations.set(definition.where, definition);
  }

  private onDeliveryChange(change: DeliveryChange): void {
    if (change === "interrupted") {
      // Events from other instances may be lost from now on: nothing they could
      // invalidate is served from the cache until the bus is back.
      this.logger.warn(
        "the event bus lost its connection; cached results that events can invalidate are served from the source until it is back",
      );
      this.trust.hold(this.namespaces);
      for (const namespace of this.namespaces) this.flights.markStale(namespace);
      return;
    }
    // Events sent meanwhile may be lost: drop whatever they could have invalidated.
    this.logger.info(
      "the event bus is back; dropping cached results that events missed meanwhile could have invalidated",
    );
    for (const namespace of this.namespaces) this.doubt(namespace);
    this.trust.release();
    this.scheduleDrop(0);
  }

  /** Puts a namespace in doubt: neither served nor stored until it has been dropped. */
  private doubt(namespace: string): void {
    this.doubtSince ??= Date.now();
    this.trust.doubt(namespace);
    this.flights.markStale(namespace);
  }

  private scheduleDrop(delayMs = this.retryMs): void {
    if (this.stopped || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      void this.dropDoubted();
    }, delayMs);
    this.retry.unref();
  }

  /** Drops every namespace in doubt (whole), clears the doubts that succeeded, retries the others. */
  private async dropDoubted(): Promise<void> {
    if (this.draining || this.stopped) return;
    this.draining = true;
    let failed = 0;
    const dropped: OperationDefinition[] = [];
    try {
      const doubted = this.trust.doubted();
      const outcomes = await Promise.allSettled(
        doubted.map(([namespace]) => this.cache.invalidate(namespace)),
      );
      outcomes.forEach((outcome, i) => {
        const [namespace, mark] = doubted[i] as [string, number];
        if (outcome.status === "rejected") failed++;
        else {
          this.trust.clear(namespace, mark);
          const definition = this.operations.get(namespace);
          if (definition) dropped.push(definition);
        }
      });
    } finally {
      this.draining = false;
    }
    // Subscribers of a dropped resource may have missed its update too.
    for (const definition of dropped) {
      if (definition.kind !== "resource") continue;
      await this.notifySubscribers(definition, undefined).catch((error: unknown) =>
        this.logger.warn(`notifying the subscribers of ${definition.where} failed`, error),
      );
    }
    if (this.trust.inDoubt === 0) {
      if (this.doubtSince !== undefined)
        this.logger.info(
          `cached results are served again (${Date.now() - this.doubtSince} ms after an invalidation was lost)`,
        );
      this.doubtSince = undefined;
      this.retryMs = RETRY_MIN_MS;
      return;
    }
    if (failed > 0) {
      this.metrics.cacheBackendErrors++;
      this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
    }
    this.scheduleDrop(failed > 0 ? this.retryMs : 0);
  }

  private async onEvent(event: BusEvent): Promise<void> {
    const rules = this.rules.get(event.name);
    if (!rules) return;
    await Promise.all(rules.map((rule) => this.apply(rule, event)));
  }

  private async apply(rule: Rule, event: BusEvent): Promise<void> {
    const { definition } = rule;
    const matcher = rule.match ? this.guard(rule.match, event, definition) : undefined;
    this.flights.markStale(definition.where, matcher);
    // A namespace in doubt is dropped whole anyway; asking a failing cache again only waits.
    if (this.trust.isInDoubt(definition.where)) {
      this.doubt(definition.where);
      this.scheduleDrop();
    } else {
      try {
        const dropped = await this.cache.invalidate(definition.where, matcher);
        this.logger.debug(`"${event.name}" dropped ${dropped} cached results of ${definition.where}`);
      } catch (error) {
        this.metrics.cacheBackendErrors++;
        this.logger.error(
          `cache invalidation of ${definition.where} on "${event.name}" failed; its cached results are served from the source until they are dropped`,
          error,
        );
        this.doubt(definition.where);
        this.scheduleDrop();
      }
    }
    if (definition.kind === "resource") await this.notifySubscribers(definition, matcher);
  }

  /** A matcher that throws drops the entry: serving stale data is worse than a miss. */
  private guard(
    match: NonNullable<Rule["match"]>,
    event: BusEvent,
    definition: OperationDefinition,
  ): EntryMatcher {
    return (input) => {
      try {
        return match(input, event.payload);
      } catch (error) {
        this.logger.warn(
          `invalidateOn matcher of ${definition.where} threw on "${event.name}"; dropping the entry`,
          error,
        );
        return true;
      }
    };
  }

  private async notifySubscribers(
    definition: ResourceDefinition,
    matcher: EntryMatcher | undefined,
  ): Promise<void> {
    if (!this.notifier) return;
    const uris = new Set<string>();
    for (const uri of this.notifier.subscribedUris()) {
      if (!definition.template) {
        if (uri === definition.uri && (!matcher || matcher({}))) uris.add(uri);
        continue;
      }
      const variables = definition.template.match(uri);
      if (!variables) continue;
      if (!matcher || matcher(cachedInputOf(definition, variables))) uris.add(uri);
    }
    await Promise.all([...uris].map((uri) => this.notifier?.notifyResourceUpdated(uri)));
  }
}

/**
 * The input a template instance is cached under: its validated variables, without those its
 * capabilities add (a page's `cursor` and `limit`: the stage that reads them takes them out).
 */
function cachedInputOf(definition: ResourceDefinition, variables: Record<string, string>): unknown {
  const parsed = definition.inputSchema?.safeParse(variables);
  const input: Record<string, unknown> = parsed?.success ? { ...parsed.data } : { ...variables };
  for (const name of definition.addedInputs) delete input[name];
  return input;
}
