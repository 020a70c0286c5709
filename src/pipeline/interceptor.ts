import type { CallToolResult, GetPromptResult, ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import type { ToolContext } from "./tool-context.js";

/** The protocol result an interceptor's `next()` resolves to. */
export type ProtocolResult = CallToolResult | ReadResourceResult | GetPromptResult;

/** What an interceptor learns about the call it wraps. */
export interface InterceptedCall {
  readonly kind: "tool" | "resource" | "prompt";
  /** The tool's or prompt's name; for a resource, its declared name. */
  readonly name: string;
  /** For a resource read: the URI read (a template's instance, not the template). */
  readonly uri?: string;
  /** The validated input (for resources: the URI template's variables). */
  readonly input: unknown;
  readonly ctx: ToolContext;
  /** The service class and method that handle the call. */
  readonly service: Function;
  readonly method: string;
}

/**
 * User code around a call: authorization checks, rate limits, audit logs, metrics. An
 * injectable class (constructor injection works) listed in `@UseInterceptors(...)` or the
 * app's `interceptors`. It runs after the input is validated and before the cache, so it
 * also guards cache hits. `next()` runs the rest of the call and resolves to the shaped
 * protocol result, which the interceptor may return, wrap or replace; throwing refuses the
 * call as a handler's error does (`isError` for a tool).
 *
 * @example
 * ```ts
 * @Injectable()
 * class RequireScope implements Interceptor {
 *   async intercept(call: InterceptedCall, next: () => Promise<ProtocolResult>) {
 *     if (!call.ctx.auth?.scopes.includes("articles:read")) throw new Error("missing scope articles:read");
 *     return next();
 *   }
 * }
 * ```
 */
export interface Interceptor {
  /** Wraps one call: return `next()`'s result (or another), or throw to refuse the call. */
  intercept(
    call: InterceptedCall,
    next: () => Promise<ProtocolResult>,
  ): Promise<ProtocolResult> | ProtocolResult;
}

/**
 * A class whose instances are interceptors, as `@UseInterceptors(...)` and the app's
 * `interceptors` take it; the app's container builds one instance per class.
 *
 * @example
 * ```ts
 * const interceptors: InterceptorClass[] = [RequireScope, AuditLog];
 * const app = await McpFactory.create(AppModule, { interceptors });
 * ```
 */
// `any[]`, as tsyringe's `constructor<T>` has it: the container builds the class with whatever it injects.
export type InterceptorClass = new (...args: any[]) => Interceptor;

/**
 * An interceptor as `interceptors` and `@UseInterceptors` take it: a class (built once per
 * app by the container, so constructor injection works) or an instance you built yourself.
 *
 * @example
 * ```ts
 * @UseInterceptors(AuditLog, new RequireScope("reports:read"))
 * ```
 */
export type InterceptorRef = InterceptorClass | Interceptor;

/** Thrown when an interceptor calls `next()` a second time in one call: the rest of a call runs once. */
export class NextCalledTwiceError extends Error {
  override readonly name = "NextCalledTwiceError";
}
