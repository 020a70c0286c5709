import {
  Inject,
  Injectable,
  type InterceptedCall,
  type Interceptor,
  LOGGER,
  type Logger,
  type ProtocolResult,
} from "frugal-mcp";

/** An interceptor class the app's container builds (what `@UseInterceptors` takes). */
type InterceptorType = new (logger: Logger) => Interceptor;

const byScope = new Map<string, InterceptorType>();

/**
 * An interceptor that refuses a call unless the caller's token carries `scope`
 * (`ctx.auth.scopes`, set by the HTTP layer from the bearer token). A refused tool call
 * answers `isError` naming the missing scope. Interceptors run before the cache and before
 * `@Invalidates`, so a refused write emits nothing and a cached read is never served to a
 * caller without the scope.
 *
 * One class per scope (the same class for the same scope, so the app builds it once).
 *
 * @example
 * ```ts
 * @Tool() @UseInterceptors(RequireScope("config:write")) setConfig() { … }
 * ```
 */
export function RequireScope(scope: string): InterceptorType {
  let type = byScope.get(scope);
  if (!type) {
    @Injectable()
    class RequireScopeInterceptor implements Interceptor {
      constructor(@Inject(LOGGER) private readonly logger: Logger) {}

      intercept(call: InterceptedCall, next: () => Promise<ProtocolResult>) {
        const granted = call.ctx.auth?.scopes ?? [];
        if (granted.includes(scope)) return next();
        const who = call.ctx.auth?.clientId ?? "an anonymous caller";
        this.logger.warn(`refused ${call.kind} "${call.name}" to ${who}: missing scope ${scope}`);
        throw new Error(
          call.ctx.auth
            ? `Forbidden: ${call.name} needs the "${scope}" scope; this token has ${granted.join(", ") || "none"}.`
            : `Unauthenticated: ${call.name} needs a bearer token with the "${scope}" scope (over HTTP: Authorization: Bearer <token>).`,
        );
      }
    }
    Object.defineProperty(RequireScopeInterceptor, "name", { value: `RequireScope(${scope})` });
    type = RequireScopeInterceptor;
    byScope.set(scope, type);
  }
  return type;
}
