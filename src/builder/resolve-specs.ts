import type {
  BudgetOptions,
  EphemeralOptions,
  MethodMetadata,
  ServiceMetadata,
} from "../metadata/definitions.js";
import type { BudgetSpec, SpillSpec } from "../metadata/specs.js";
import type { InterceptorRef } from "../pipeline/interceptor.js";
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

// Every option key of each decorator (the `Record` makes the compiler flag a key added to its type but not here).
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

/** The resolved specs of the behaviour decorators (`@Budget`, `@Ephemeral`, …) of one operation. */
export function resolveSpecs(context: SpecContext) {
  const { metadata } = context;
  const spill = metadata.ephemeral === undefined ? undefined : resolveSpill(context);
  return {
    budget: resolveBudget(context),
    spill,
    interceptors: [
      ...checkInterceptors(context.serviceClass.name, context.classMetadata.interceptors),
      ...checkInterceptors(context.where, metadata.interceptors),
    ],
  };
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
