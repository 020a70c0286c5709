import { metadataStore } from "../metadata/store.js";
import type { Interceptor } from "../pipeline/interceptor.js";
import { memberKindOf } from "./member-kind.js";

/**
 * Runs interceptors around the calls of a method, or of every method of a class (class
 * interceptors first, then the method's, each in the order given; the app's
 * `interceptors` run before both). An interceptor is an injectable class with
 * `intercept(call, next)`, which the app's container builds once (constructor injection
 * works), or an instance you built (`new RequireScope("admin")`). They run after input validation and before the cache, so they guard cache hits.
 * Two `@UseInterceptors` on one member add up, in reading order (the upper one first).
 *
 * @example
 * ```ts
 * @UseInterceptors(AuditLog)
 * @McpService()
 * class ArticlesService {
 *   @Tool() @UseInterceptors(RequireScope) publish() { … }   // AuditLog, then RequireScope
 * }
 * ```
 */
export function UseInterceptors(...interceptors: Array<Function | Interceptor>) {
  const recorded = Object.freeze([...interceptors]);
  return (target: object, property?: string | symbol, descriptor?: PropertyDescriptor): void => {
    // Decorators apply bottom-up, so what this member already declared (on this class only:
    // re-decorating an inherited member still replaces its parent's list) comes after. A
    // second decorator must not silently drop the first: it may be an authorization check.
    if (property === undefined) {
      const declared = metadataStore.ownService(target)?.interceptors ?? [];
      metadataStore.writeService(target, {
        interceptors: Object.freeze([...recorded, ...declared]),
      });
    } else {
      const declared = metadataStore.ownMethod(target, property)?.interceptors ?? [];
      metadataStore.writeMethod(target, property, memberKindOf(descriptor), {
        interceptors: Object.freeze([...recorded, ...declared]),
      });
    }
  };
}
