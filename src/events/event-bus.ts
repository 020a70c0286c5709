/** A named event with an optional payload (`{ site: "a" }`). */
export interface BusEvent {
  name: string;
  payload?: unknown;
}

/** Receives events; returning a promise lets the bus wait for invalidations to finish. */
export type EventListener = (event: BusEvent) => void | Promise<void>;

/**
 * Carries events between the parts of an app (and, with `RedisEventBus`, between app
 * instances). Behind the `EVENT_BUS` token.
 */
export interface EventBus {
  /** Publishes an event; resolves once local listeners have handled it. */
  emit(name: string, payload?: unknown): Promise<void>;
  /** Subscribes to every event; returns an unsubscribe function. */
  subscribe(listener: EventListener): () => void;
  close?(): Promise<void>;
}
