import { fieldOf, isObject } from "../common/guards.js";
import type { MethodMetadata, ServiceMetadata } from "../metadata/definitions.js";
import type { InterceptorRef } from "../pipeline/interceptor.js";
import { describe, OptionChecker } from "./check-options.js";

/** What resolving an operation's behaviour decorators needs besides its metadata. */
export interface SpecContext {
  readonly where: string;
  readonly kind: "tool" | "resource" | "prompt";
  /** The operation's name. */
  readonly name: string;
  readonly serviceClass: Function;
  readonly metadata: MethodMetadata;
  readonly classMetadata: ServiceMetadata;
}

/** The resolved specs of the behaviour decorators of one operation that are no capability (`@UseInterceptors`). */
export function resolveSpecs(context: SpecContext) {
  const { metadata } = context;
  return {
    interceptors: [
      ...checkInterceptors(context.serviceClass.name, context.classMetadata.interceptors),
      ...checkInterceptors(context.where, metadata.interceptors),
    ],
  };
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
  return typeof type === "function" && typeof fieldOf(type.prototype, "intercept") === "function";
}

/** True for an interceptor built by the user: an object (not a class) with an `intercept` method. */
function isInterceptorInstance(value: unknown): value is InterceptorRef {
  return isObject(value) && typeof value.intercept === "function";
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
