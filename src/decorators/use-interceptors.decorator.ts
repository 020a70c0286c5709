import { metadataStore } from "../metadata/store.js";
import { memberKindOf } from "./member-kind.js";

/**
 * Runs interceptors around the calls of a method, or of every method of a class (class
 * interceptors first, then the method's, each in the order given; the app's
 * `interceptors` run before both). An interceptor is an injectable class with
 * `intercept(call, next)`; the app's container builds it once, so constructor injection
 * works. They run after input validation and before the cache, so they guard cache hits.
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
export function UseInterceptors(...interceptors: Function[]) {
  const recorded = Object.freeze([...interceptors]);
  return (target: object, property?: string | symbol, descriptor?: PropertyDescriptor): void => {
    if (property === undefined) metadataStore.writeService(target as Function, { interceptors: recorded });
    else metadataStore.writeMethod(target, property, memberKindOf(descriptor), { interceptors: recorded });
  };
}
