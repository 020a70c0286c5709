import type { EventBus } from "./event-bus.js";

/**
 * A provider that turns outside changes (a database notification, a changed file) into
 * events. The app starts every registered `ExternalEventSource` with its bus once the providers
 * are built, and closes it with the app. One source may serve several apps at once (a
 * `useValue` provider of a module is shared by every app built from it): it listens once
 * and publishes to every app's bus.
 *
 * Subclasses implement `listen()` and `stop()` and call `publish()`.
 *
 * @example
 * ```ts
 * class TickSource extends ExternalEventSource {
 *   private timer?: NodeJS.Timeout;
 *   protected async listen() { this.timer = setInterval(() => this.publish("tick"), 1000); }
 *   protected async stop() { clearInterval(this.timer); }
 * }
 * ```
 */
export abstract class ExternalEventSource {
  private readonly buses = new Set<EventBus>();
  private listening: Promise<void> | undefined;

  /** Starts listening (once) and publishing to `bus` too. */
  async start(bus: EventBus): Promise<void> {
    this.buses.add(bus);
    this.listening ??= this.listen().catch((error: unknown) => {
      this.listening = undefined;
      throw error;
    });
    await this.listening;
  }

  /** Stops listening and releases connections (the app calls it when the last app using it closes). */
  async close(): Promise<void> {
    this.buses.clear();
    if (!this.listening) return;
    this.listening = undefined;
    await this.stop();
  }

  /** Publishes an event on every bus this source serves; a failing bus does not stop the others. */
  protected publish(name: string, payload?: unknown): void {
    for (const bus of this.buses) void bus.emit(name, payload).catch(() => {});
  }

  /** Connects, subscribes or watches; called once however many apps use the source. */
  protected abstract listen(): Promise<void>;
  /** Undoes `listen()`. */
  protected abstract stop(): Promise<void>;
}
