// tsyringe's runtime, for the whole package. tsyringe is CommonJS: an ESM `import` of it
// makes Node scan its sources for named exports (cjs-module-lexer, through the 30-odd
// files it re-exports), which took 25–50 ms of start-up; `require` gives the very same
// module (one copy, one global container) without the scan.
import "reflect-metadata"; // first: tsyringe refuses to load without the Reflect polyfill
import type * as Tsyringe from "tsyringe";
import type { InjectionToken } from "tsyringe";
import { requirePackage } from "../common/require-package.js";

const tsyringe = requirePackage("tsyringe") as typeof Tsyringe;

/** tsyringe's global container; each app builds its providers in a child of it. */
export const container = tsyringe.container;

/**
 * Parameter decorator (tsyringe's `inject`, exported as `Inject`): injects the provider of
 * `token` into a constructor parameter. Needs no decorator metadata, so it also works
 * under tsx and esbuild.
 *
 * @example
 * ```ts
 * constructor(@Inject(STORAGE) private readonly storage: ResourceStorage) {}
 * ```
 */
export const inject = tsyringe.inject;

/**
 * Class decorator (tsyringe's `injectable`, exported as `Injectable`): lets the container
 * build the class, reading its constructor's parameter types from decorator metadata.
 * Abstract classes take it too: an abstract base records the parameter types its subclasses
 * inherit. (tsyringe's own signature takes concrete classes only: TS1238 on an abstract one.)
 *
 * @example
 * ```ts
 * @Injectable()
 * class ArticlesRepo { constructor(private readonly db: Database) {} }
 *
 * @Injectable()
 * abstract class LogSource { constructor(protected readonly clock: SystemClock) {} }
 * ```
 */
export function injectable<T>(options?: { token?: InjectionToken<T> | InjectionToken<T>[] }): ClassDecorator {
  const decorate = tsyringe.injectable<T>(options);
  return (target) => decorate(target as unknown as Parameters<typeof decorate>[0]);
}
