import { metadataStore } from "../metadata/store.js";
import type { Capability } from "../pipeline/capability.js";
import { copyOptions } from "./copy-options.js";
import { type MethodDecorator, memberKindOf } from "./member-kind.js";

/** A capability's definition as `defineCapability` takes it: the capability, and how its decorator's arguments become its options. */
export interface CapabilityDefinition<Args extends unknown[], Options, Spec>
  extends Capability<Options, Spec> {
  /** Turns the decorator's arguments into the options recorded on the method (checked later, at start-up, by `resolve`). */
  options(...args: Args): Options;
}

/** The decorator `defineCapability` makes, with its capability (for `specOf`). */
export type CapabilityDecorator<Args extends unknown[], Options, Spec> = ((
  ...args: Args
) => MethodDecorator) & {
  readonly capability: Capability<Options, Spec>;
};

/**
 * What a capability decorator for classes as well as methods returns (`classes: true`): on a
 * class, its options are the default of every operation of the service.
 */
export type ServiceOrMethodDecorator = (
  target: object,
  property?: string | symbol,
  descriptor?: PropertyDescriptor,
) => void;

/** The decorator `defineCapability` makes of a capability with `classes: true`. */
export type ServiceCapabilityDecorator<Args extends unknown[], Options, Spec> = ((
  ...args: Args
) => ServiceOrMethodDecorator) & {
  readonly capability: Capability<Options, Spec>;
};

/**
 * Defines a behaviour decorator with its own pipeline stage, in one file of your app: the
 * decorator records its options (nothing else, like every frugal-mcp decorator), start-up
 * checks them (`resolve`, naming the method on failure), and its stage runs at the place it
 * names in the pipeline (a capability acting at several places lists them in `stages`), with
 * the app's container at hand for its dependencies. It stacks with the built-in decorators in
 * any order.
 *
 * @example
 * ```ts
 * export const RateLimit = defineCapability({
 *   name: "rateLimit",
 *   decorator: "@RateLimit",
 *   options: (limit: number, options: { per?: "second" | "minute" } = {}) => ({ limit, per: options.per ?? "minute" }),
 *   resolve: (options, target) =>
 *     options.limit >= 1 ? options : target.fail(`limit must be at least 1, not ${options.limit}`, "e.g. @RateLimit(5)"),
 *   stage: {
 *     after: "interceptors", // guards cache hits too
 *     create: (spec, operation, services) => {
 *       const limiter = services.resolve<RateLimiter>(RateLimiter);
 *       return async (call, next) => {
 *         if (!(await limiter.take(`${operation.where}:${call.ctx.owner}`, spec))) throw new Error("Rate limit reached; retry in a minute");
 *         return next();
 *       };
 *     },
 *   },
 * });
 * // @Tool() @RateLimit(5, { per: "minute" }) async search(…) { … }
 * ```
 */
export function defineCapability<Args extends unknown[], Options, Spec = Options>(
  definition: CapabilityDefinition<Args, Options, Spec> & { readonly classes: true },
): ServiceCapabilityDecorator<Args, Options, Spec>;
export function defineCapability<Args extends unknown[], Options, Spec = Options>(
  definition: CapabilityDefinition<Args, Options, Spec>,
): CapabilityDecorator<Args, Options, Spec>;
export function defineCapability<Args extends unknown[], Options, Spec = Options>(
  definition: CapabilityDefinition<Args, Options, Spec>,
): CapabilityDecorator<Args, Options, Spec> | ServiceCapabilityDecorator<Args, Options, Spec> {
  const { options: optionsOf, ...rest } = definition;
  const capability: Capability<Options, Spec> = Object.freeze({ ...rest });
  const decorator = (...args: Args): ServiceOrMethodDecorator => {
    // Recorded as a frozen copy: the caller's objects are never kept or changed.
    const options = copyOptions(optionsOf(...args)) as Options;
    return (target, property, descriptor) => {
      // On a class (start-up refuses it there unless the capability takes classes).
      if (property === undefined) metadataStore.writeServiceCapability(target, { capability, options });
      else metadataStore.writeCapability(target, property, memberKindOf(descriptor), { capability, options });
    };
  };
  return Object.assign(decorator, { capability });
}
