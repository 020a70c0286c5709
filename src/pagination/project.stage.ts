import type { Stage } from "../pipeline/invocation.js";
import type { OperationDefinition } from "../pipeline/operation.js";
import { isErrorResult } from "../pipeline/outcomes.js";
import type { StageFactory } from "../pipeline/stage-factory.js";
import { isPlainObject } from "../results/shape-tool-result.js";
import { pickFields } from "./pick-fields.js";

/**
 * Under `@Project`: keeps only the selected fields (`fields` input, else `defaultFields`)
 * of the handler's result: an object, an array of objects, or an object's `items` (its
 * other keys, such as a total, are kept). It runs next to the handler, so the budget
 * counts and the cache stores the projected result; the selection is part of the input,
 * hence of the cache key.
 */
export function projectStage(): StageFactory {
  return { name: "project", create: projectorFor };
}

function projectorFor(definition: OperationDefinition): Stage | undefined {
  const spec = definition.projection;
  if (!spec) return undefined;
  return async (invocation, next) => {
    const value = await next();
    if (isErrorResult(value)) return value;
    const asked = (invocation.input as { fields?: readonly string[] } | undefined)?.fields;
    const fields = asked ?? spec.defaultFields;
    if (Array.isArray(value)) return value.map((item) => pickFields(item, fields));
    if (isPlainObject(value) && Array.isArray(value.items)) {
      return { ...value, items: value.items.map((item) => pickFields(item, fields)) };
    }
    return pickFields(value, fields);
  };
}
