import { FrugalConfigError } from "../errors/config-error.js";

/**
 * Small checks shared by every decorator's options, each failing at start-up with a
 * `FrugalConfigError` that names the member, the option and the fix.
 */
export class OptionChecker {
  constructor(
    /** `ArticlesService.listArticles` (or a class name for class decorators). */
    readonly where: string,
    /** `@Cached`, `@Budget`, … */
    readonly decorator: string,
  ) {}

  fail(problem: string, fix: string): never {
    throw new FrugalConfigError(this.where, `${this.decorator} ${problem}`, fix);
  }

  /** Options must be an object whose keys are all known: a typo must not pass silently. */
  knownKeys(options: unknown, allowed: readonly string[]): Record<string, unknown> {
    if (options === undefined) return {};
    if (typeof options !== "object" || options === null || Array.isArray(options)) {
      this.fail(`options must be an object, not ${describe(options)}`, `pass { ${allowed.join(", ")} }`);
    }
    const unknown = Object.keys(options).filter((key) => !allowed.includes(key));
    if (unknown.length > 0) {
      this.fail(
        `has unknown option${unknown.length > 1 ? "s" : ""} ${unknown.map((k) => `\`${k}\``).join(", ")}`,
        `use only ${allowed.map((k) => `\`${k}\``).join(", ")}`,
      );
    }
    return options as Record<string, unknown>;
  }

  /** A whole number of at least 1 (tokens, limits). */
  positiveInteger(name: string, value: unknown, example: string): number {
    if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1) {
      this.fail(`${name} must be a positive whole number, not ${describe(value)}`, `e.g. ${example}`);
    }
    return value;
  }

  /** A positive, finite number of milliseconds. */
  positiveDuration(name: string, value: unknown, example: string): number {
    if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
      this.fail(
        `${name} must be a positive, finite number of milliseconds, not ${describe(value)}`,
        `e.g. ${example}`,
      );
    }
    return value;
  }

  oneOf<T extends string>(name: string, value: unknown, allowed: readonly T[]): T {
    if (!allowed.includes(value as T)) {
      this.fail(
        `${name} must be ${allowed.map((v) => `"${v}"`).join(" or ")}, not ${describe(value)}`,
        `use ${allowed.map((v) => `"${v}"`).join(" or ")}`,
      );
    }
    return value as T;
  }

  optionalString(name: string, value: unknown): string | undefined {
    if (value !== undefined && typeof value !== "string") {
      this.fail(`${name} must be a string, not ${describe(value)}`, `pass text, or leave ${name} out`);
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
  if (Array.isArray(value)) return "an array";
  if (typeof value === "function") return `a function (${value.name || "anonymous"})`;
  return `an object`;
}
