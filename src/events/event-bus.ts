import type { InjectionToken } from "tsyringe";
/** A named event with an optional payload (`{ site: "a" }`). */
export interface BusEvent {
  name: string;
  payload?: unknown;
}

/** Receives events; returning a promise lets the bus wait for invalidations to finish. */
export type EventListener = (event: BusEvent) => void | Promise<void>;

/**
 * What a bus that carries events between instances says about events from the others:
 * `"interrupted"`, they may stop arriving (the connection was lost); `"restored"`, they
 * arrive again, and any sent meanwhile may have been lost.
 */
export type DeliveryChange = "interrupted" | "restored";

/**
 * Carries events between the parts of an app (and, with `RedisEventBus`, between app
 * instances). Behind the `EVENT_BUS` token.
 */
export interface EventBus {
  /** Publishes an event; resolves once local listeners have handled it. */
  emit(name: string, payload?: unknown): Promise<void>;
  /** Subscribes to every event; returns an unsubscribe function. */
  subscribe(listener: EventListener): () => void;
  /**
   * For a bus that can lose events from other instances: reports when it may be losing
   * them and when it hears them again, so caches can drop what a lost event would have
   * invalidated. A bus within one process never loses one and leaves it out.
   */
  onDeliveryChange?(listener: (change: DeliveryChange) => void): () => void;
  /** Releases connections and timers; the app calls it when it closes. */
  close?(): Promise<void>;
}

/**
 * The DI token of the event bus that carries invalidation and custom events
 * (`InMemoryEventBus` by default). Defined beside its interface so `events/` needs no import
 * of the token file; `tokens.ts` re-exports it with the others.
 *
 * @example
 * ```ts
 * providers: [{ provide: EVENT_BUS, useValue: new RedisEventBus({ url: process.env.REDIS_URL }) }]
 * ```
 */
export const EVENT_BUS: InjectionToken<EventBus> = Symbol.for("frugal-mcp.EVENT_BUS");
