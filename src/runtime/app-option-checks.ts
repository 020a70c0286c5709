import { OptionChecker, TEXT_FORMATS } from "../builder/check-options.js";
import type { TextFormat } from "../metadata/definitions.js";

const WHERE = "McpFactory.create options";

/**
 * The app's `text` option: `"auto"`, `"json"` or `"compact"`, like `@Tool`'s.
 *
 * @example
 * checkAppText(options.text); // "json", or a FrugalConfigError naming `text`
 */
export function checkAppText(text: unknown): TextFormat | undefined {
  if (text === undefined) return undefined;
  return new OptionChecker(WHERE).oneOf("`text`", text, TEXT_FORMATS);
}

/**
 * The app's `budget` option must be a positive whole number, like `@Budget`'s.
 *
 * @example
 * checkAppBudget(options.budget); // 2000, or a FrugalConfigError naming `budget`
 */
export function checkAppBudget(budget: unknown): number | undefined {
  if (budget === undefined) return undefined;
  return new OptionChecker(WHERE).positiveInteger("`budget`", budget, "budget: 2000");
}
