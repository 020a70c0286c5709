import { describe } from "../builder/check-options.js";
import { defineCapability } from "../decorators/define-capability.js";
import { EVENT_BUS, type EventBus } from "../events/event-bus.js";
import { isErrorResult } from "../pipeline/outcomes.js";

/**
 * After the method succeeds (not on a thrown error or an `isError` result), emits these
 * events on the app's event bus, with the call's validated input as payload, before the
 * response is sent, so the caller's next read already misses the cache. A bus failure is
 * logged, not turned into a failed call: the write did happen. A capability like any other:
 * its stage runs just inside the interceptors, so an interceptor's refusal emits nothing.
 *
 * @example
 * ```ts
 * @Tool({ input: { site: z.string(), slug: z.string() } })
 * @Invalidates("articles.changed")
 * publish(input: { site: string; slug: string }) { return this.repo.publish(input); }
 * ```
 */
export const Invalidates = defineCapability({
  name: "invalidates",
  decorator: "@Invalidates",
  options: (...events: string[]): readonly string[] => Object.freeze([...events]),
  resolve(events, target) {
    for (const event of events as readonly unknown[]) {
      if (typeof event !== "string" || event === "")
        target.fail(
          `takes non-empty event names, not ${describe(event)}`,
          'pass event names, e.g. @Invalidates("articles.changed")',
        );
    }
    return events;
  },
  stage: {
    after: "interceptors",
    create(events, operation, services) {
      if (events.length === 0) return undefined;
      const bus = services.resolve<EventBus>(EVENT_BUS);
      return async (call, next) => {
        const result = await next();
        if (isErrorResult(result)) return result;
        for (const event of events) {
          try {
            await bus.emit(event, call.input);
          } catch (error) {
            services.logger.error(`emitting "${event}" after ${operation.where} failed`, error);
          }
        }
        return result;
      };
    },
  },
});
