import type { Registry } from "../builder/registry.js";
import type { BusEvent, EventBus } from "../events/event-bus.js";
import type { Logger } from "../logging/logger.js";
import type { InvalidationRule } from "../metadata/definitions.js";
import type { AppMetrics } from "../metrics/app-metrics.js";
import type { OperationDefinition, ResourceDefinition } from "../pipeline/operation.js";
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

const PAGE_INPUTS = ["cursor", "limit", "fields", "since", "until"];

/**
 * Turns events into invalidations: for each `invalidateOn` rule that names the event, it
 * marks running misses stale (their results stay out of the cache), drops the stored
 * entries (all, or those the rule's matcher accepts), and, for resources, notifies every
 * session subscribed to an affected URI.
 */
export class CacheInvalidator {
  private readonly rules = new Map<string, Rule[]>();
  private unsubscribe: (() => void) | undefined;
  private notifier: ResourceNotifier | undefined;

  constructor(
    registry: Registry,
    private readonly cache: ResultCache,
    private readonly flights: SingleFlight,
    private readonly metrics: AppMetrics,
    private readonly logger: Logger,
  ) {
    const operations = [
      ...registry.tools.values(),
      ...registry.staticResources.values(),
      ...registry.templates,
      ...registry.prompts.values(),
    ];
    for (const { definition } of operations) {
      for (const rule of definition.cache?.invalidateOn ?? []) this.addRule(definition, rule);
    }
  }

  /** True when some operation is cached with `invalidateOn`. */
  get hasRules(): boolean {
    return this.rules.size > 0;
  }

  start(bus: EventBus): void {
    if (this.hasRules) this.unsubscribe = bus.subscribe((event) => this.onEvent(event));
  }

  /** Lets the invalidator notify subscribed sessions (set by the app once it exists). */
  attach(notifier: ResourceNotifier): void {
    this.notifier = notifier;
  }

  stop(): void {
    this.unsubscribe?.();
  }

  private addRule(definition: OperationDefinition, rule: InvalidationRule): void {
    const event = typeof rule === "string" ? rule : rule.event;
    const list = this.rules.get(event) ?? [];
    list.push(typeof rule === "string" ? { definition } : { definition, match: rule.match });
    this.rules.set(event, list);
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
    try {
      const dropped = await this.cache.invalidate(definition.where, matcher);
      this.logger.debug(`"${event.name}" dropped ${dropped} cached results of ${definition.where}`);
    } catch (error) {
      this.metrics.cacheBackendErrors++;
      this.logger.error(`cache invalidation of ${definition.where} on "${event.name}" failed`, error);
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

/** The input a template instance is cached under: its validated variables, without page inputs. */
function cachedInputOf(definition: ResourceDefinition, variables: Record<string, string>): unknown {
  const parsed = definition.inputSchema?.safeParse(variables);
  const input: Record<string, unknown> = parsed?.success ? { ...parsed.data } : { ...variables };
  for (const name of PAGE_INPUTS) if (definition.pagination) delete input[name];
  return input;
}
