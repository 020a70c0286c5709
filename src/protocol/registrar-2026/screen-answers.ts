import { fieldOf } from "../../common/guards.js";
import { exceededInputLimit, type InputLimits } from "../../pipeline/stages/measure-input.js";

/**
 * Why the answers (`params.inputResponses`) of a 2026-07-28 request must be refused before the
 * SDK parses them, or `undefined`: they reach the handler as its arguments do, so they are held
 * to the same input limits (depth, size, `__proto__`). Deep nesting would otherwise overflow the
 * stack of the SDK's own schema check (HTTP 500). Both fronts call it: the HTTP era and stdio.
 *
 * @example
 * ```ts
 * answersProblem({ method: "tools/call", params: { inputResponses: deep } }, DEFAULT_INPUT_LIMITS);
 * // "Invalid params: inputResponses: the answer `frugal.0` is nested deeper than 32 levels"
 * ```
 */
export function answersProblem(message: unknown, limits: InputLimits): string | undefined {
  const params = fieldOf(message, "params");
  if (params === null || typeof params !== "object") return undefined;
  const responses = fieldOf(params, "inputResponses");
  if (responses === undefined) return undefined;
  const problem = exceededInputLimit(responses, limits);
  if (!problem) return undefined;
  const named = problem
    .replace(/^arguments (are|hold)/, "the answers $1")
    .replace(/argument `/g, "the answer `");
  return `Invalid params: inputResponses: ${named}`;
}
