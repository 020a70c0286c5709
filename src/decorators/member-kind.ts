import type { MemberKind } from "../metadata/definitions.js";

/** Tells a plain method from a getter, setter or field, so the builder can refuse the others. */
export function memberKindOf(descriptor: PropertyDescriptor | undefined): MemberKind {
  if (!descriptor) return "field";
  if (descriptor.get) return "getter";
  if (descriptor.set) return "setter";
  return typeof descriptor.value === "function" ? "method" : "field";
}

/**
 * What the behaviour decorators (`@Cached`, `@Paginated`, `@Project`, `@Invalidates`,
 * `@Ephemeral`) return. Unlike TypeScript's global `MethodDecorator`, the descriptor is
 * optional, so one placed on a field or accessor compiles and startup then refuses it with a
 * message that names the member.
 *
 * @example
 * ```ts
 * const cachedFiveMinutes: MethodDecorator = Cached({ ttl: 300_000 });
 * ```
 */
export type MethodDecorator = (
  target: object,
  property: string | symbol,
  descriptor?: PropertyDescriptor,
) => void;
