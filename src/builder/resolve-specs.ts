import type {
  BudgetOptions,
  CachedOptions,
  EphemeralOptions,
  InvalidationRule,
  MethodMetadata,
  ServiceMetadata,
} from "../metadata/definitions.js";
import type { BudgetSpec, CacheSpec, SpillSpec } from "../metadata/specs.js";
import type { InterceptorRef } from "../pipeline/interceptor.js";
import { describe, listOf, OptionChecker } from "./check-options.js";

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

// Every option key of each decorator (the `Record` makes the compiler flag a key added to its type but not here).
const CACHED_OPTIONS = Object.keys({ ttl: true, invalidateOn: true, scope: true } satisfies Record<
  keyof CachedOptions,
  true
>);
const BUDGET_OPTIONS = Object.keys({ onExceed: true } satisfies Record<keyof BudgetOptions, true>);
const EPHEMERAL_OPTIONS = Object.keys({
  when: true,
  ttl: true,
  mimeType: true,
  name: true,
  description: true,
  scope: true,
  preview: true,
} satisfies Record<keyof EphemeralOptions, true>);

/** The resolved specs of the behaviour decorators (`@Cached`, `@Budget`, `@Ephemeral`, …) of one operation. */
export function resolveSpecs(context: SpecContext) {
  const { metadata } = context;
  // `@Cached()` records an undefined slot: the slot being there is what counts, so the check refuses it.
  const cache = "cached" in metadata ? resolveCache(context) : undefined;
  const spill = metadata.ephemeral === undefined ? undefined : resolveSpill(context);
  if (cache && spill) refuseCachedSpill(context.where);
  return {
    cache,
    budget: resolveBudget(context),
    spill,
    interceptors: [
      ...checkInterceptors(context.serviceClass.name, context.classMetadata.interceptors),
      ...checkInterceptors(context.where, metadata.interceptors),
    ],
  };
}

function resolveCache({ where, kind, metadata }: SpecContext): CacheSpec {
  const check: OptionChecker = new OptionChecker(where, "@Cached");
  const options = check.knownKeys(metadata.cached, CACHED_OPTIONS);
  const ttl = check.positiveDuration("`ttl`", options.ttl, "@Cached({ ttl: 60_000 })");
  const scope =
    options.scope === undefined
      ? kind === "tool"
        ? "owner"
        : "global"
      : check.oneOf("`scope`", options.scope, ["owner", "global"] as const);
  const invalidateOn = options.invalidateOn === undefined ? [] : options.invalidateOn;
  if (!Array.isArray(invalidateOn)) {
    check.fail(
      `\`invalidateOn\` must be an array, not ${describe(invalidateOn)}`,
      'e.g. invalidateOn: ["articles.changed"]',
    );
  }
  for (const [index, rule] of invalidateOn.entries()) checkRule(check, rule, index);
  return Object.freeze({ ttl, scope, invalidateOn: Object.freeze([...invalidateOn]) });
}

/**
 * A stored result is answered with a link to a resource that expires, and such answers are
 * never cached: `@Cached` would silently miss on every large result (and on every result with
 * `when: "always"`), so the pair is refused rather than left to look like a cache.
 */
function refuseCachedSpill(where: string): never {
  return new OptionChecker(where, "@Cached").fail(
    "cannot be combined with @Ephemeral: a result @Ephemeral stores is answered with a link to a resource that expires, and such answers are never cached, so the handler would run again on every call",
    "remove @Cached (the stored resource is already read again through its link, with read_resource and search_resource), or remove @Ephemeral to cache results that fit the budget (@Paginated pages a large one)",
  );
}

function checkRule(check: OptionChecker, rule: unknown, index: number): asserts rule is InvalidationRule {
  const entry = `\`invalidateOn[${index}]\``;
  const fix = 'use an event name, or { event: "articles.changed", match: (input, payload) => … }';
  if (typeof rule === "string") {
    if (rule === "") check.fail(`${entry} is an empty event name`, fix);
    return;
  }
  if (typeof rule !== "object" || rule === null || Array.isArray(rule)) {
    check.fail(`${entry} must be an event name or { event, match }, not ${describe(rule)}`, fix);
  }
  const { event, match, ...rest } = rule as Record<string, unknown>;
  const unknown = Object.keys(rest).map((key) => `\`${key}\``);
  if (unknown.length > 0) {
    check.fail(
      `${entry} has ${unknown.length > 1 ? `unknown keys ${listOf(unknown, "and")}` : `an unknown key ${unknown[0]}`}`,
      "give it only `event` and `match`",
    );
  }
  if (typeof event !== "string" || event === "") {
    check.fail(
      `\`invalidateOn[${index}].event\` must be a non-empty event name, not ${describe(event)}`,
      fix,
    );
  }
  if (match === undefined) {
    check.fail(
      `${entry} has an \`event\` but no \`match\``,
      `add match: (input, payload) => …, or pass the event name alone (${JSON.stringify(event)})`,
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
  const tokens = check.positiveInteger("`tokens`", declared.tokens, "@Budget(2000)");
  const options = check.knownKeys(declared.options, BUDGET_OPTIONS);
  const onExceed =
    options.onExceed === undefined
      ? "auto"
      : check.oneOf("`onExceed`", options.onExceed, ["auto", "error"] as const);
  return { tokens, onExceed };
}

/** Default size of a stored result's summary with its preview, in tokens. */
const DEFAULT_PREVIEW_TOKENS = 200;

function resolveSpill({ where, kind, name, metadata }: SpecContext): SpillSpec {
  const check: OptionChecker = new OptionChecker(where, "@Ephemeral");
  if (kind !== "tool") check.fail("applies to tools only", "remove @Ephemeral, or make this method a @Tool");
  const options = check.knownKeys(metadata.ephemeral, EPHEMERAL_OPTIONS);
  const preview =
    options.preview === undefined || options.preview === true
      ? DEFAULT_PREVIEW_TOKENS
      : options.preview === false
        ? 0
        : typeof options.preview === "number"
          ? check.positiveInteger("`preview`", options.preview, "preview: 120")
          : check.fail(
              `\`preview\` must be true, false or a number of tokens, not ${describe(options.preview)}`,
              "use preview: false to leave the preview out, a number of tokens to size it, or drop the option for 200",
            );
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
    preview,
  });
}

/** Interceptors must be classes with an `intercept` method; the container builds them. */
export function checkInterceptors(where: string, declared: unknown): InterceptorRef[] {
  return checkInterceptorList(new OptionChecker(where, "@UseInterceptors"), "takes", declared);
}

/** The app's `interceptors` option, checked like `@UseInterceptors`. */
export function checkAppInterceptors(declared: unknown): InterceptorRef[] {
  return checkInterceptorList(
    new OptionChecker("McpFactory.create options"),
    "`interceptors` takes",
    declared,
  );
}

/** True for what the container can build as an interceptor: a class with an `intercept` method. */
export function isInterceptorClass(type: unknown): type is InterceptorRef & Function {
  return (
    typeof type === "function" &&
    typeof (type.prototype as { intercept?: unknown } | undefined)?.intercept === "function"
  );
}

/** True for an interceptor built by the user: an object (not a class) with an `intercept` method. */
function isInterceptorInstance(value: unknown): value is InterceptorRef {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { intercept?: unknown }).intercept === "function"
  );
}

function checkInterceptorList(check: OptionChecker, subject: string, declared: unknown): InterceptorRef[] {
  if (declared === undefined) return [];
  if (!Array.isArray(declared)) {
    check.fail(
      `${subject} an array of interceptor classes, not ${describe(declared)}`,
      "e.g. interceptors: [AuditLog]",
    );
  }
  return declared.map((type) => {
    if (!isInterceptorClass(type) && !isInterceptorInstance(type)) {
      check.fail(
        `${subject} interceptor classes or instances with an \`intercept(call, next)\` method, not ${describe(type)}`,
        "pass a class (built by the container) or an object with an intercept(call, next) method",
      );
    }
    return type;
  });
}
