import "reflect-metadata";
import type { InjectionToken } from "tsyringe";

/** Where TypeScript (`emitDecoratorMetadata`) records a decorated class's constructor parameter types. */
const PARAM_TYPES = "design:paramtypes";
/** Where tsyringe's `@inject()` (re-exported as `Inject`) records parameter tokens, on the class itself. */
const INJECTION_TOKENS = "injectionTokens";

/** What tsyringe's `@inject`, `@injectAll` and their `…WithTransform` variants record for one parameter. */
export interface TokenDescriptor {
  readonly token: InjectionToken;
  readonly multiple?: boolean;
  readonly isOptional?: boolean;
  readonly transform?: InjectionToken;
  readonly transformArgs?: readonly unknown[];
}

/** One constructor parameter, as far as decorators and metadata tell. */
export interface ConstructorParam {
  readonly index: number;
  /** The parameter's name in the compiled source, when it is a plain identifier. */
  readonly name: string | undefined;
  /** What `@Inject(token)` (or `@injectAll`, …) recorded, if the parameter has it. */
  readonly injected: TokenDescriptor | undefined;
  /** The type TypeScript recorded (`String`, `Object`, a class), `undefined` without metadata. */
  readonly type: unknown;
  /** A parameter with a default value (or after one): `undefined` is acceptable for it. */
  readonly hasDefault: boolean;
}

/** How a class is constructed: by its own constructor or one it inherits. */
export interface ConstructorInfo {
  /** The class whose constructor runs: the class itself, or the nearest parent that declares one. */
  readonly declaredBy: Function;
  /** Whether `design:paramtypes` exists for that constructor. */
  readonly hasMetadata: boolean;
  readonly params: readonly ConstructorParam[];
}

/**
 * Reads what injecting `target`'s constructor needs. tsyringe reads only the class's own
 * `@inject` tokens, so a subclass without a constructor of its own would lose its parent's;
 * here a class that declares no constructor uses the parameters (types and tokens) of the
 * nearest parent that does. `@Inject(token)` on every parameter needs no metadata at all.
 */
export function constructorInfo(target: Function): ConstructorInfo {
  let declaredBy = target;
  while (!declaresConstructor(declaredBy)) {
    const parent: unknown = Object.getPrototypeOf(declaredBy);
    if (typeof parent !== "function" || parent === Function.prototype) break;
    declaredBy = parent;
  }
  const types: unknown[] | undefined = Reflect.getOwnMetadata(PARAM_TYPES, declaredBy);
  const tokens: Record<string, TokenDescriptor | InjectionToken> =
    Reflect.getOwnMetadata(INJECTION_TOKENS, declaredBy) ?? {};
  const tokenIndexes = Object.keys(tokens).map(Number);
  const count = Math.max(types?.length ?? declaredBy.length, ...tokenIndexes.map((i) => i + 1));
  const names = parameterNames(declaredBy);
  const params: ConstructorParam[] = [];
  for (let index = 0; index < count; index++) {
    const recorded = tokens[index];
    params.push({
      index,
      name: names?.[index],
      injected: recorded === undefined ? undefined : asDescriptor(recorded),
      type: types?.[index],
      // `length` counts the parameters before the first one with a default value.
      hasDefault: index >= declaredBy.length,
    });
  }
  return { declaredBy, hasMetadata: types !== undefined, params };
}

/** True when the class has `@Inject` tokens of its own (parameter decorators: it is decorated). */
export function hasOwnInjectionTokens(target: Function): boolean {
  return Reflect.getOwnMetadata(INJECTION_TOKENS, target) !== undefined;
}

/**
 * Whether `target` declares a constructor: metadata or tokens of its own, declared
 * parameters, or `constructor(` in its source. A subclass without one has `length` 0.
 */
function declaresConstructor(target: Function): boolean {
  return (
    Reflect.getOwnMetadata(PARAM_TYPES, target) !== undefined ||
    hasOwnInjectionTokens(target) ||
    target.length > 0 ||
    /(?<![.\w$])constructor\s*\(/.test(classSource(target))
  );
}

function classSource(target: Function): string {
  const source = Function.prototype.toString.call(target);
  return source.startsWith("class") ? source : "";
}

/** The names in a class's own `constructor(…)`, when its source shows them simply. */
function parameterNames(target: Function): Array<string | undefined> | undefined {
  const list = /(?<![.\w$])constructor\s*\(([^()]*)\)\s*\{/.exec(classSource(target))?.[1];
  if (list === undefined) return undefined;
  return list.split(",").map((part) => /^\s*([A-Za-z_$][\w$]*)\s*(=|$)/.exec(part)?.[1]);
}

/** `@inject(token)` records a descriptor; older tsyringe versions recorded the bare token. */
function asDescriptor(recorded: TokenDescriptor | InjectionToken): TokenDescriptor {
  if (typeof recorded === "object" && recorded !== null && "token" in recorded) return recorded;
  return { token: recorded as InjectionToken };
}
