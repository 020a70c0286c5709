import type { BusEvent, EventBus, EventListener } from "./event-bus.js";

/**
 * The default event bus: delivers events to listeners in this process.
 *
 * @example
 * ```ts
 * const bus = new InMemoryEventBus();
 * bus.subscribe((e) => console.error(e.name));
 * await bus.emit("articles.changed", { site: "a" });
 * ```
 */
export class InMemoryEventBus implements EventBus {
  private readonly listeners = new Set<EventListener>();

  async emit(name: string, payload?: unknown): Promise<void> {
    const event: BusEvent = payload === undefined ? { name } : { name, payload };
    // Every listener runs even if one fails; the first failure is reported to the emitter.
    // A listener that throws synchronously rejects its own promise, like an async one.
    const outcomes = await Promise.allSettled([...this.listeners].map(async (listener) => listener(event)));
    const failure = outcomes.find((o): o is PromiseRejectedResult => o.status === "rejected");
    if (failure) throw failure.reason;
  }

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
