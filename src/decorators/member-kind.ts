import type { MemberKind } from "../metadata/definitions.js";

/** Tells a plain method from a getter, setter or field, so the builder can refuse the others. */
export function memberKindOf(descriptor: PropertyDescriptor | undefined): MemberKind {
  if (!descriptor) return "field";
  if (descriptor.get) return "getter";
  if (descriptor.set) return "setter";
  return typeof descriptor.value === "function" ? "method" : "field";
}

/** The signature shared by every frugal method decorator. */
export type MethodDecorator = (
  target: object,
  property: string | symbol,
  descriptor?: PropertyDescriptor,
) => void;
