import type { Logger } from "../logging/logger.js";
import { isErrorResult } from "../pipeline/outcomes.js";
import type { StageFactory } from "../pipeline/stage-factory.js";
import type { EventBus } from "./event-bus.js";

/**
 * Under `@Invalidates`: after a success (not a thrown error, not an `isError` result),
 * emits each event with the call's validated input as payload, before the response
 * leaves. A bus failure is logged, not turned into a failed call: the write did happen.
 */
export function invalidateStage(bus: EventBus, logger: Logger): StageFactory {
  return {
    name: "invalidate",
    create(definition) {
      const events = definition.invalidates;
      if (events.length === 0) return undefined;
      return async (invocation, next) => {
        const result = await next();
        if (isErrorResult(result)) return result;
        for (const event of events) {
          try {
            await bus.emit(event, invocation.input);
          } catch (error) {
            logger.error(`emitting "${event}" after ${definition.where} failed`, error);
          }
        }
        return result;
      };
    },
  };
}
