import type { InvalidationRule, MethodMetadata, ServiceMetadata } from "../metadata/definitions.js";
import type { BudgetSpec, CacheSpec, SpillSpec } from "../metadata/specs.js";
import type { InterceptorClass } from "../pipeline/interceptor.js";
import { describe, OptionChecker } from "./check-options.js";

/** What resolving an operation's behaviour decorators needs besides its metadata. */
export interface SpecContext {
  readonly where: string;
  readonly kind: "tool" | "resource" | "prompt";
  /** The operation's name: the default name of a spilled resource. */
  readonly name: string;
  /** False for app-only tools, which are never budgeted. */
  readonly modelVisible: boolean;
  readonly serviceClass: Function;
  readonly metadata: MethodMetadata;
  readonly classMetadata: ServiceMetadata;
  /** The app's `budget` option (already checked). */
  readonly appBudget: number | undefined;
}

/** The resolved specs of the behaviour decorators (`@Cached`, `@Budget`, `@Ephemeral`, …) of one operation. */
export function resolveSpecs(context: SpecContext) {
  const { metadata } = context;
  return {
    cache: metadata.cached === undefined ? undefined : resolveCache(context),
    budget: resolveBudget(context),
    spill: metadata.ephemeral === undefined ? undefined : resolveSpill(context),
    invalidates: resolveInvalidates(context),
    interceptors: [
      ...checkInterceptors(context.serviceClass.name, context.classMetadata.interceptors),
      ...checkInterceptors(context.where, metadata.interceptors),
    ],
  };
}

function resolveCache({ where, kind, metadata }: SpecContext): CacheSpec {
  const check: OptionChecker = new OptionChecker(where, "@Cached");
  const options = check.knownKeys(metadata.cached, ["ttl", "invalidateOn", "scope"]);
  const ttl = check.positiveDuration("`ttl`", options.ttl, "@Cached({ ttl: 60_000 })");
  const scope =
    options.scope === undefined
      ? kind === "tool"
        ? "owner"
        : "global"
      : check.oneOf("`scope`", options.scope, ["owner", "global"] as const);
  const invalidateOn = options.invalidateOn ?? [];
  if (!Array.isArray(invalidateOn)) {
    check.fail(
      `\`invalidateOn\` must be an array, not ${describe(invalidateOn)}`,
      'e.g. invalidateOn: ["articles.changed"]',
    );
  }
  for (const [index, rule] of invalidateOn.entries()) checkRule(check, rule, index);
  return Object.freeze({ ttl, scope, invalidateOn: Object.freeze([...invalidateOn]) });
}

function checkRule(check: OptionChecker, rule: unknown, index: number): asserts rule is InvalidationRule {
  const fix = 'use an event name, or { event: "articles.changed", match: (input, payload) => … }';
  if (typeof rule === "string") {
    if (rule === "") check.fail(`\`invalidateOn[${index}]\` is an empty event name`, fix);
    return;
  }
  if (typeof rule !== "object" || rule === null) {
    check.fail(
      `\`invalidateOn[${index}]\` must be an event name or { event, match }, not ${describe(rule)}`,
      fix,
    );
  }
  const { event, match, ...rest } = rule as Record<string, unknown>;
  const unknown = Object.keys(rest);
  if (unknown.length > 0) check.fail(`\`invalidateOn[${index}]\` has unknown key \`${unknown[0]}\``, fix);
  if (typeof event !== "string" || event === "") {
    check.fail(
      `\`invalidateOn[${index}].event\` must be a non-empty event name, not ${describe(event)}`,
      fix,
    );
  }
  if (typeof match !== "function") {
    check.fail(`\`invalidateOn[${index}].match\` must be a function, not ${describe(match)}`, fix);
  }
}

function resolveBudget({
  where,
  kind,
  modelVisible,
  metadata,
  classMetadata,
  serviceClass,
  appBudget,
}: SpecContext) {
  // Class-level budgets are checked even when every method overrides them: a typo must not wait.
  const fromClass = classMetadata.budget && checkBudget(serviceClass.name, classMetadata.budget);
  const fromMethod = metadata.budget && checkBudget(where, metadata.budget);
  if (kind === "tool" && !modelVisible) return undefined;
  const spec: BudgetSpec | undefined =
    fromMethod ??
    fromClass ??
    (appBudget === undefined ? undefined : { tokens: appBudget, onExceed: "auto" });
  return spec && Object.freeze(spec);
}

function checkBudget(where: string, declared: { tokens: unknown; options: unknown }): BudgetSpec {
  const check: OptionChecker = new OptionChecker(where, "@Budget");
  const tokens = check.positiveInteger("tokens", declared.tokens, "@Budget(2000)");
  const options = check.knownKeys(declared.options, ["onExceed"]);
  const onExceed =
    options.onExceed === undefined
      ? "auto"
      : check.oneOf("`onExceed`", options.onExceed, ["auto", "error"] as const);
  return { tokens, onExceed };
}

function resolveSpill({ where, kind, name, metadata }: SpecContext): SpillSpec {
  const check: OptionChecker = new OptionChecker(where, "@Ephemeral");
  if (kind !== "tool") check.fail("applies to tools only", "remove @Ephemeral, or make this method a @Tool");
  const options = check.knownKeys(metadata.ephemeral, [
    "when",
    "ttl",
    "mimeType",
    "name",
    "description",
    "scope",
    "preview",
  ]);
  if (options.preview !== undefined && typeof options.preview !== "boolean") {
    check.fail(
      `\`preview\` must be true or false, not ${describe(options.preview)}`,
      "use preview: false to leave it out",
    );
  }
  return Object.freeze({
    when:
      options.when === undefined
        ? "overBudget"
        : check.oneOf("`when`", options.when, ["overBudget", "always"] as const),
    ttl:
      options.ttl === undefined
        ? undefined
        : check.positiveDuration("`ttl`", options.ttl, "@Ephemeral({ ttl: 3_600_000 })"),
    mimeType: check.optionalString("`mimeType`", options.mimeType),
    name: check.optionalString("`name`", options.name) ?? name,
    description: check.optionalString("`description`", options.description),
    scope:
      options.scope === undefined
        ? "owner"
        : check.oneOf("`scope`", options.scope, ["owner", "global"] as const),
    preview: (options.preview as boolean | undefined) ?? true,
  });
}

function resolveInvalidates({ where, metadata }: SpecContext): readonly string[] {
  const events = metadata.invalidates ?? [];
  const check: OptionChecker = new OptionChecker(where, "@Invalidates");
  for (const event of events) {
    if (typeof event !== "string" || event === "") {
      check.fail(`takes event names, not ${describe(event)}`, '@Invalidates("articles.changed")');
    }
  }
  return Object.freeze([...events]);
}

/** Interceptors must be classes with an `intercept` method; the container builds them. */
export function checkInterceptors(
  where: string,
  declared: readonly unknown[] | undefined,
): InterceptorClass[] {
  const check: OptionChecker = new OptionChecker(where, "@UseInterceptors");
  return (declared ?? []).map((type) => {
    const intercept =
      typeof type === "function" ? (type.prototype as { intercept?: unknown })?.intercept : undefined;
    if (typeof intercept !== "function") {
      check.fail(
        `takes classes with an \`intercept(call, next)\` method, not ${describe(type)}`,
        "pass the class itself (not an instance), and give it an intercept(call, next) method",
      );
    }
    return type as InterceptorClass;
  });
}
