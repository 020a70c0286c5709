import type { StageFactory } from "../pipeline/stage-factory.js";
import { EVENT_BUS } from "../tokens.js";

/**
 * Under `@Invalidates`: after a success (not a thrown error, not an `isError` result),
 * emits each event with the call's validated input as payload, before the response
 * leaves. A bus failure is logged, not turned into a failed call: the write did happen.
 */
export const invalidateStage: StageFactory = {
  name: "invalidate",
  create(definition, env) {
    const events = definition.metadata.invalidates;
    if (!events || events.length === 0) return undefined;
    const bus = env.resolve(EVENT_BUS);
    return async (invocation, next) => {
      const result = await next();
      if ((result as { isError?: unknown } | undefined)?.isError === true) return result;
      for (const event of events) {
        try {
          await bus.emit(event, invocation.input);
        } catch (error) {
          env.logger.error(`emitting "${event}" after ${definition.where} failed`, error);
        }
      }
      return result;
    };
  },
};
