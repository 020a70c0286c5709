import { isObject, itemAt } from "../common/guards.js";
import { FrugalConfigError } from "../errors/config-error.js";
import type { TextFormat } from "../metadata/definitions.js";

/** The values of a `text` option (`@Tool`'s, the app's, a capability's). */
export const TEXT_FORMATS = ["auto", "json", "compact"] as const satisfies readonly TextFormat[];

/**
 * Small checks shared by every decorator's options, each failing at start-up with a
 * `FrugalConfigError` that names the member, the option and the fix.
 *
 * @example
 * ```ts
 * const check = new OptionChecker("ArticlesService.list", "@Cached");
 * check.positiveDuration("`ttl`", options.ttl, "@Cached({ ttl: 60_000 })");
 * // ArticlesService.list: @Cached `ttl` must be a positive, finite number of milliseconds, not NaN. Fix: e.g. @Cached({ ttl: 60_000 }).
 * ```
 */
export class OptionChecker {
  constructor(
    /** `ArticlesService.listArticles` (or a class name for class decorators). */
    readonly where: string,
    /** `@Cached`, `@Budget`, …; omitted for the app's own options. */
    readonly decorator?: string,
  ) {}

  fail(problem: string, fix: string): never {
    throw new FrugalConfigError(this.where, this.decorator ? `${this.decorator} ${problem}` : problem, fix);
  }

  /**
   * Options must be an object whose keys are all known: a typo must not pass silently.
   * `of` names a nested option (`` `stream` ``) in the message.
   */
  knownKeys(options: unknown, allowed: readonly string[], of?: string): Record<string, unknown> {
    if (options === undefined) return {};
    const subject = of ?? "options";
    if (!isObject(options) || Array.isArray(options)) {
      this.fail(`${subject} must be an object, not ${describe(options)}`, `pass { ${allowed.join(", ")} }`);
    }
    const unknown = Object.keys(options).filter((key) => !allowed.includes(key));
    if (unknown.length > 0) {
      const owner = of === undefined ? "has" : `${of} has`;
      this.fail(
        unknown.length > 1
          ? `${owner} unknown options ${listOf(unknown.map(code), "and")}`
          : `${owner} an unknown option ${code(itemAt(unknown, 0))}`,
        allowed.length > 1
          ? `use only ${listOf(allowed.map(code), "or")}`
          : `use only ${code(allowed[0] ?? "")}`,
      );
    }
    return options;
  }

  /** A whole number of at least 1 (tokens, limits). */
  positiveInteger(name: string, value: unknown, example: string): number {
    if (value === undefined)
      this.fail(`${name} is missing; it must be a positive whole number`, `e.g. ${example}`);
    if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1) {
      this.fail(`${name} must be a positive whole number, not ${describe(value)}`, `e.g. ${example}`);
    }
    return value;
  }

  /** A whole number of 0 or more (a grace period in milliseconds). */
  nonNegativeInteger(name: string, value: unknown, example: string): number {
    if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
      this.fail(`${name} must be a whole number of 0 or more, not ${describe(value)}`, `e.g. ${example}`);
    }
    return value;
  }

  /** A positive, finite number of milliseconds. */
  positiveDuration(name: string, value: unknown, example: string): number {
    if (value === undefined) {
      this.fail(
        `${name} is missing; it must be a positive, finite number of milliseconds`,
        `e.g. ${example}`,
      );
    }
    if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
      this.fail(
        `${name} must be a positive, finite number of milliseconds, not ${describe(value)}`,
        `e.g. ${example}`,
      );
    }
    return value;
  }

  oneOf<T extends string>(name: string, value: unknown, allowed: readonly T[]): T {
    if (!isOneOf(value, allowed)) {
      const choices = listOf(
        allowed.map((v) => `"${v}"`),
        "or",
      );
      this.fail(`${name} must be ${choices}, not ${describe(value)}`, `use ${choices}`);
    }
    return value;
  }

  /** True, false, or absent (`undefined`); `fix` says what each value does. */
  optionalBoolean(name: string, value: unknown, fix: string): boolean | undefined {
    if (value !== undefined && typeof value !== "boolean") {
      this.fail(`${name} must be true or false, not ${describe(value)}`, fix);
    }
    return value;
  }

  optionalString(name: string, value: unknown): string | undefined {
    if (value !== undefined && typeof value !== "string") {
      this.fail(`${name} must be a string, not ${describe(value)}`, `pass a string, or leave ${name} out`);
    }
    return value;
  }
}

/** How a bad value reads in a message: `NaN`, `"0"`, `an array`, … */
export function describe(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint")
    return String(value);
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return value.length === 0 ? "an empty array" : "an array";
  if (typeof value === "function") return `a function (${value.name || "anonymous"})`;
  if (typeof value === "symbol") return String(value);
  return "an object";
}

/** `a`, `a or b`, `a, b or c`. */
export function listOf(items: readonly string[], conjunction: "and" | "or"): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} ${conjunction} ${items.at(-1)}`;
}

/** An option name as code: `ttl`. */
function code(name: string): string {
  return `\`${name}\``;
}

/** True for a value among `allowed` (compared as `includes` compares strings). */
function isOneOf<T extends string>(value: unknown, allowed: readonly T[]): value is T {
  return allowed.some((choice) => choice === value);
}
