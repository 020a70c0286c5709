import type { BudgetOptions } from "../metadata/definitions.js";
import { metadataStore } from "../metadata/store.js";
import { copyOptions } from "./copy-options.js";
import { memberKindOf } from "./member-kind.js";

/**
 * Holds what the model reads from a tool (or resource) to `tokens` tokens, counted by a
 * real BPE tokenizer. On a method or a class (the method wins; the app's `budget` option
 * is the default). Over the budget, a page shrinks, an `@Ephemeral` result spills, and
 * anything else answers `OUTPUT_BUDGET_EXCEEDED`: a result is never cut silently.
 *
 * @example
 * ```ts
 * @Budget(2000)
 * @McpService()
 * class LogsService {
 *   @Tool() @Budget(500) summary() { … }   // 500 here, 2,000 for the others
 * }
 * ```
 */
export function Budget(tokens: number, options: BudgetOptions = {}) {
  const recorded = Object.freeze({ tokens, options: copyOptions(options) });
  return (target: object, property?: string | symbol, descriptor?: PropertyDescriptor): void => {
    if (property === undefined) metadataStore.writeService(target as Function, { budget: recorded });
    else metadataStore.writeMethod(target, property, memberKindOf(descriptor), { budget: recorded });
  };
}
