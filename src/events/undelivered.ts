import type { EventBus } from "./event-bus.js";

/**
 * The bus as the app's own parts use it (`@Invalidates`, `ctx.events`, outside event
 * sources): the same bus, except that an event it fails to emit is also reported to
 * `onUndelivered` (the emitter still gets the error). Whether the failure lost the local
 * delivery or only the one to other instances, the app can then drop what the event
 * should have invalidated instead of serving it stale.
 */
export function reportUndelivered(bus: EventBus, onUndelivered: (name: string) => void): EventBus {
  const reporting: EventBus = {
    async emit(name, payload) {
      try {
        await bus.emit(name, payload);
      } catch (error) {
        try {
          onUndelivered(name);
        } catch {
          // The emitter's error is the one to report.
        }
        throw error;
      }
    },
    subscribe: (listener) => bus.subscribe(listener),
  };
  const watch = bus.onDeliveryChange?.bind(bus);
  if (watch) reporting.onDeliveryChange = watch;
  return reporting;
}
