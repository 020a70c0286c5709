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
 * (`ctx.auth.scopes`, set by the transport from the request's credentials). A refused
 * tool call answers `isError` with a message that says which scope is missing; a resource
 * read or a prompt answers a JSON-RPC error. Because interceptors run before the cache, a
 * cached result is never served to a caller without the scope.
 *
 * One class per scope (the same class for the same scope, so the app builds it once); the
 * app's `LOGGER` is injected to keep an audit trail of refusals on the server side.
 *
 * @example
 * ```ts
 * @Tool() @UseInterceptors(RequireScope("notes:write")) addNote() { … }
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
        const who = call.ctx.auth?.clientId ?? "an unauthenticated caller";
        this.logger.warn(`refused ${call.kind} "${call.name}" to ${who}: missing scope ${scope}`);
        throw new Error(
          call.ctx.auth
            ? `Forbidden: ${call.name} needs the "${scope}" scope; this token has ${granted.join(", ") || "none"}.`
            : `Unauthenticated: ${call.name} needs a bearer token with the "${scope}" scope.`,
        );
      }
    }
    // Names the scope in start-up errors ("RequireScope(notes:write): constructor parameter #0 …").
    Object.defineProperty(RequireScopeInterceptor, "name", { value: `RequireScope(${scope})` });
    type = RequireScopeInterceptor;
    byScope.set(scope, type);
  }
  return type;
}
