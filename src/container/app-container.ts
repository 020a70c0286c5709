// Over 300 lines on purpose: the app's DI container builds classes itself so that each failure names the
// class, the parameter and the fix; those messages need the build's own state (the chain being built, the
// module that lists a token), so they stay methods of the one builder class.
import type { DependencyContainer, InjectionToken } from "tsyringe";
import { fieldOf, isObject } from "../common/guards.js";
import type { ProviderEntry } from "../decorators/mcp-module.decorator.js";
import { container as rootContainer } from "../decorators/tsyringe.js";
import { FrugalConfigError } from "../errors/config-error.js";
import { metadataStore } from "../metadata/store.js";
import {
  type ConstructorInfo,
  type ConstructorParam,
  constructorInfo,
  hasOwnInjectionTokens,
  type TokenDescriptor,
} from "./constructor-params.js";
import { describeToken, tokenOf } from "./module-graph.js";

/** The DI side of an app: its own child container and every singleton it built. */
export interface AppContainer {
  readonly container: DependencyContainer;
  /** Every provider and service instance built, in creation order (dependencies first), each once. */
  readonly instances: readonly unknown[];
  resolve<T>(token: InjectionToken<T>): T;
}

/** What start-up errors can name besides the classes themselves. */
interface AppContainerContext {
  /** The module that lists each provider token and service class, to say where a fix goes. */
  readonly listedBy?: ReadonlyMap<unknown, Function>;
}

type Constructor = new (...args: unknown[]) => unknown;

/** Who asked for a token, for the message when it cannot be built. */
type Asker =
  | {
      readonly kind: "parameter";
      readonly target: Function;
      readonly info: ConstructorInfo;
      readonly param: ConstructorParam;
    }
  | { readonly kind: "factory" }
  | { readonly kind: "alias" }
  | { readonly kind: "app" };

/** Types TypeScript records for primitives, interfaces and unions: they name no provider. */
const UNINJECTABLE_TYPES: ReadonlySet<unknown> = new Set([
  Object,
  String,
  Number,
  Boolean,
  Symbol,
  BigInt,
  Array,
  Function,
  Promise,
  Map,
  Set,
  Date,
  RegExp,
  Error,
]);

/**
 * Registers providers (later entries override earlier ones for the same token) in a
 * child container of its own, then builds every provider and service eagerly, as NestJS
 * does, so a missing dependency fails at start-up rather than on the first call.
 *
 * The app builds classes itself rather than through tsyringe, so that every failure names
 * the class, the parameter and the fix: a class no module provides is refused (never built
 * once per consumer), a subclass without a constructor of its own is built with its parent's
 * parameters and `@Inject` tokens, `@Inject(token)` on every parameter needs no decorator
 * metadata, and a constructor or factory that throws is reported with its own error as `cause`.
 */
export function createAppContainer(
  providers: readonly ProviderEntry[],
  services: readonly Function[],
  context: AppContainerContext = {},
): AppContainer {
  const entries = new Map<InjectionToken, ProviderEntry>();
  for (const entry of providers) entries.set(tokenOf(entry), entry);
  for (const service of services)
    if (!entries.has(service as InjectionToken))
      entries.set(service as InjectionToken, service as Constructor);
  const container = rootContainer.createChildContainer();
  const builder = new AppBuilder(entries, container, context.listedBy ?? new Map());
  // Resolving through the container (a factory's `c.resolve(…)`) reaches the same singletons.
  for (const token of entries.keys()) container.register(token, { useFactory: () => builder.get(token) });
  for (const token of entries.keys()) builder.get(token, { kind: "app" });
  return {
    container,
    instances: builder.instances,
    resolve: <T>(token: InjectionToken<T>) => builder.get(token, { kind: "app" }) as T,
  };
}

/** Builds each registered token once, and says exactly why when it cannot. */
class AppBuilder {
  readonly instances: unknown[] = [];
  private readonly built = new Map<InjectionToken, unknown>();
  /** What is being built right now, outermost first: the chain a message names. */
  private readonly building: InjectionToken[] = [];
  /** The container a factory receives: its `resolve` goes through this builder. */
  private readonly factoryContainer: DependencyContainer;

  constructor(
    private readonly entries: ReadonlyMap<InjectionToken, ProviderEntry>,
    private readonly container: DependencyContainer,
    private readonly listedBy: ReadonlyMap<unknown, Function>,
  ) {
    this.factoryContainer = new Proxy(container, {
      get: (target, property) => {
        if (property === "resolve") return (token: InjectionToken) => this.get(token, { kind: "factory" });
        const value = Reflect.get(target, property, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  }

  get(token: InjectionToken, asker: Asker = { kind: "factory" }): unknown {
    if (this.built.has(token)) return this.built.get(token);
    if (isDelayed(token)) return token.createProxy((target) => this.get(target, asker));
    const entry = this.entries.get(token);
    if (!entry) {
      if (rootContainer.isRegistered(token, true)) return this.fromRootContainer(token);
      throw this.notProvided(token, asker);
    }
    if (this.building.includes(token)) {
      throw new FrugalConfigError(
        this.chain(token),
        "a circular dependency",
        "move what both need into a provider of its own, or let one side take the other lazily: `@Inject(delay(() => Other))`, with tsyringe's `delay`",
      );
    }
    this.building.push(token);
    try {
      const value = this.create(token, entry);
      this.built.set(token, value);
      if (!this.instances.includes(value)) this.instances.push(value);
      return value;
    } finally {
      this.building.pop();
    }
  }

  private create(token: InjectionToken, entry: ProviderEntry): unknown {
    if (typeof entry === "function") return this.construct(entry);
    if ("useClass" in entry) return this.construct(entry.useClass);
    if ("useValue" in entry) return entry.useValue;
    if ("useFactory" in entry) {
      try {
        return entry.useFactory(this.factoryContainer);
      } catch (error) {
        if (error instanceof FrugalConfigError) throw error;
        throw threw(this.chain(), "its factory", error);
      }
    }
    if ("useToken" in entry) return this.get(entry.useToken, { kind: "alias" });
    throw new FrugalConfigError(
      `provider for ${describeToken(token)}`,
      "has none of useClass, useValue, useFactory, useToken",
      "pick one",
    );
  }

  private construct(target: new (...args: any[]) => unknown): unknown {
    const info = constructorInfo(target);
    const args = info.params.map((param) => this.argument(target, info, param));
    try {
      return new target(...args);
    } catch (error) {
      // A FrugalConfigError already names what is wrong and the fix.
      if (error instanceof FrugalConfigError) throw error;
      throw threw(this.chain(), "its constructor", error);
    }
  }

  private argument(target: Function, info: ConstructorInfo, param: ConstructorParam): unknown {
    const asker: Asker = { kind: "parameter", target, info, param };
    const descriptor: TokenDescriptor | undefined = param.injected;
    const token = descriptor?.token ?? (param.type as InjectionToken | undefined);
    if (token === undefined) {
      if (param.hasDefault) return undefined;
      throw info.hasMetadata ? this.undefinedType(asker) : this.missingMetadata(asker);
    }
    if (!this.canBuild(token)) {
      if (param.hasDefault || descriptor?.isOptional) return descriptor?.multiple ? [] : undefined;
      if (!descriptor && UNINJECTABLE_TYPES.has(token)) throw this.uninjectableType(asker, token as Function);
      throw this.notProvided(token, asker);
    }
    const value = descriptor?.multiple ? this.all(token) : this.get(token, asker);
    if (!descriptor?.transform) return value;
    const transformer = this.get(descriptor.transform, asker) as {
      transform(value: unknown, ...args: unknown[]): unknown;
    };
    return transformer.transform(value, ...(descriptor.transformArgs ?? []));
  }

  private all(token: InjectionToken): unknown[] {
    if (this.entries.has(token)) return [this.get(token)];
    return this.container.resolveAll(token);
  }

  private canBuild(token: InjectionToken): boolean {
    return this.entries.has(token) || isDelayed(token) || rootContainer.isRegistered(token, true);
  }

  /** A token registered in tsyringe's global container (`@singleton()`, `@injectable({ token })`). */
  private fromRootContainer(token: InjectionToken): unknown {
    try {
      return this.container.resolve(token);
    } catch (error) {
      throw new FrugalConfigError(
        this.chain(token),
        `tsyringe's global container could not build it: ${String(fieldOf(error, "message")).split("\n").join(" ")}`,
        "provide it in a module's `providers` instead, so the app builds it",
        { cause: error },
      );
    }
  }

  /** `chain()` names what is being built (`A → B`), ending with `last` when given. */
  private chain(last?: InjectionToken): string {
    return [...this.building, ...(last === undefined ? [] : [last])].map((t) => this.label(t)).join(" → ");
  }

  /** A token, with the class built for it when that is another name (`"repo" (SqlRepo)`). */
  private label(token: InjectionToken): string {
    const entry = this.entries.get(token);
    const built = typeof entry === "object" && "useClass" in entry ? entry.useClass : undefined;
    return built && built !== token ? `${describeToken(token)} (${built.name})` : describeToken(token);
  }

  /** "the module that lists X", for the fix. */
  private moduleHint(): string {
    const consumer = this.building.at(-1);
    const module = consumer === undefined ? undefined : this.listedBy.get(consumer);
    return module
      ? ` of ${module.name} (the module that lists ${describeToken(consumer as InjectionToken)})`
      : " of a module";
  }

  private notProvided(token: InjectionToken, asker: Asker): FrugalConfigError {
    const name = describeToken(token);
    const problem =
      asker.kind === "parameter"
        ? `${describeParam(asker)} needs ${name}${asker.param.injected ? " (its @Inject token)" : ""}, which no module provides`
        : asker.kind === "factory"
          ? `its factory resolves ${name}, which no module provides`
          : asker.kind === "alias"
            ? `its useToken names ${name}, which no module provides`
            : `no module provides ${name}`;
    const fix =
      typeof token === "function"
        ? `add ${token.name} to the \`providers\`${this.moduleHint()}; a class is built only when a module provides it, once per app`
        : `add { provide: ${name}, useValue | useClass | useFactory } to the \`providers\`${this.moduleHint()}`;
    return new FrugalConfigError(asker.kind === "app" ? `app.get(${name})` : this.chain(), problem, fix);
  }

  private uninjectableType(asker: Extract<Asker, { kind: "parameter" }>, type: Function): FrugalConfigError {
    const name = asker.param.name ?? "value";
    return new FrugalConfigError(
      this.chain(),
      `${describeParam(asker)} has the type ${type.name}, which names no provider (TypeScript records primitives, interfaces and unions as String, Number, Boolean or Object)`,
      `inject it by token: \`@Inject(TOKEN) ${name}\`, with { provide: TOKEN, useValue | useFactory } in a module's \`providers\``,
    );
  }

  private missingMetadata(asker: Extract<Asker, { kind: "parameter" }>): FrugalConfigError {
    const owner = asker.info.declaredBy;
    // A frugal class decorator or an @Inject parameter: the class is decorated, so the compiler left the metadata out.
    const decorated = metadataStore.ownService(owner) !== undefined || hasOwnInjectionTokens(owner);
    const because = decorated
      ? `${owner.name} was compiled without \`emitDecoratorMetadata\``
      : `${owner.name} has no class decorator such as @Injectable(), or was compiled without \`emitDecoratorMetadata\``;
    return new FrugalConfigError(
      this.chain(),
      `${describeParam(asker)} has no type to inject: decorator metadata is missing, because ${because} (tsx and esbuild never emit it)`,
      `add @Inject(token) to each constructor parameter of ${owner.name} (e.g. \`@Inject(Repo) repo: Repo\`; a string or symbol token works too), which needs no metadata; or ${decorated ? "" : `decorate ${owner.name} with @Injectable() and `}compile it with tsc (\`"emitDecoratorMetadata": true\`) or swc (\`jsc.transform.decoratorMetadata: true\`): \`frugal-mcp dev\` compiles with tsc, and \`tsx --import frugal-mcp/register\` with swc (\`npm install -D @swc/core\`)`,
    );
  }

  private undefinedType(asker: Extract<Asker, { kind: "parameter" }>): FrugalConfigError {
    return new FrugalConfigError(
      this.chain(),
      `${describeParam(asker)} has the type \`undefined\` in its decorator metadata: its class was not defined yet when ${asker.info.declaredBy.name} was decorated (a circular import)`,
      "break the import cycle, or inject by token: `@Inject(TOKEN)` with { provide: TOKEN, useFactory } in a module's `providers`",
    );
  }
}

/** A constructor or factory that threw: its class, its message, and the error itself as `cause`. */
function threw(where: string, what: string, error: unknown): FrugalConfigError {
  const message = error instanceof Error ? error.message : String(error);
  return new FrugalConfigError(
    where,
    `${what} threw: ${message}`,
    "see this error's `cause` (the original error, with its stack); to start even while a connection fails, do the work that can fail in `ready()`",
    { cause: error },
  );
}

function describeParam(asker: Extract<Asker, { kind: "parameter" }>): string {
  const { param, info, target } = asker;
  const name = param.name === undefined ? "" : ` "${param.name}"`;
  const inherited =
    info.declaredBy === target
      ? ""
      : ` (of ${info.declaredBy.name}'s constructor, which ${target.name} inherits)`;
  return `constructor parameter #${param.index}${name}${inherited}`;
}

/** tsyringe's `delay(() => Class)`: resolved lazily, on first use (how a circular dependency is broken). */
function isDelayed(
  token: unknown,
): token is { createProxy(create: (target: InjectionToken) => unknown): unknown } {
  return isObject(token) && typeof token.createProxy === "function";
}
