import { awaitReady } from "../app/lifecycle.js";
import type { EventBus } from "../events/event-bus.js";
import { ExternalEventSource } from "../events/external-event-source.js";
import type { Logger } from "../logging/logger.js";

/**
 * Starts every `ExternalEventSource` provider (they are closed with the other providers). Like
 * `ready()`, this is bounded: a source that cannot connect is logged, and the app starts
 * without it rather than not at all.
 */
export async function startEventSources(
  instances: readonly unknown[],
  bus: EventBus,
  timeoutMs: number,
  logger: Logger,
): Promise<void> {
  const sources = instances.filter((i): i is ExternalEventSource => i instanceof ExternalEventSource);
  const starts = sources.map((source) => ({
    ready: () =>
      source.start(bus).catch((error: unknown) => {
        logger.error(`${source.constructor.name} could not start; its events will not arrive`, error);
      }),
  }));
  await awaitReady(starts, timeoutMs, logger);
}
