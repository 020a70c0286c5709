import type { InjectionToken } from "tsyringe";
import { metadataStore } from "../metadata/store.js";

/**
 * A class, as `@McpModule`'s `services`, `imports` and providers take it (any constructor
 * parameters: the container supplies them).
 *
 * @example
 * ```ts
 * const services: Constructor[] = [ArticlesService, LogsService];
 * ```
 */
export type Constructor<T = unknown> = new (...args: any[]) => T;

/** A tsyringe-style provider entry, or a bare class (shorthand for `{ provide: C, useClass: C }`). */
export type ProviderEntry =
  | Constructor
  | { provide: InjectionToken; useClass: Constructor }
  | { provide: InjectionToken; useValue: unknown }
  | {
      provide: InjectionToken;
      /** Builds the value once per app; `container.resolve(token)` gives the other providers. */
      useFactory: (container: import("tsyringe").DependencyContainer) => unknown;
    }
  | { provide: InjectionToken; useToken: InjectionToken };

/** Options of `@McpModule`. */
export interface McpModuleOptions {
  /** `@McpService` classes whose tools, resources and prompts this module serves. */
  services?: Constructor[];
  /** Providers available for injection; each is a singleton per app. */
  providers?: ProviderEntry[];
  /** Other modules whose services and providers this module includes. */
  imports?: Constructor[];
}

/**
 * Groups services and providers, NestJS-style. `imports` composes modules; a provider of
 * the importing module overrides one of an imported module for the same token.
 *
 * @example
 * ```ts
 * @McpModule({ services: [ArticlesService], providers: [ArticlesRepo], imports: [LogsModule] })
 * export class AppModule {}
 * ```
 */
export function McpModule(options: McpModuleOptions): ClassDecorator {
  const recorded = Object.freeze({
    services: Object.freeze([...(options.services ?? [])]),
    providers: Object.freeze([...(options.providers ?? [])]),
    imports: Object.freeze([...(options.imports ?? [])]),
  });
  return (target) => metadataStore.writeModule(target, recorded);
}
