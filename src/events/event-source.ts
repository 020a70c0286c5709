import type { EventBus } from "./event-bus.js";

/**
 * A provider that turns outside changes (a database notification, a changed file) into
 * events. The app starts every registered `EventSource` with its bus once the providers
 * are built, and closes it with the app.
 *
 * @example
 * ```ts
 * providers: [{ provide: "config-watch", useValue: new FileWatchSource({ path: "config.json", event: "config.changed" }) }]
 * ```
 */
export abstract class EventSource {
  /** Starts listening and publishing to `bus`. */
  abstract start(bus: EventBus): Promise<void>;
  /** Stops listening and releases connections. */
  abstract close(): Promise<void>;
}
