import "reflect-metadata";
import type { MemberKind, MethodMetadata, RecordedCapability, ServiceMetadata } from "./definitions.js";
import { METADATA } from "./keys.js";

/**
 * The one place that reads and writes frugal metadata. Writes never mutate a stored
 * record: they store a fresh copy, so a subclass decorating a method cannot alter its
 * parent's record.
 */
export const metadataStore = {
  /** Adds one decorator's slot to a method's own record (on this prototype only). */
  writeMethod(
    prototype: object,
    property: string | symbol,
    memberKind: MemberKind,
    patch: Partial<MethodMetadata>,
  ): void {
    const own: MethodMetadata | undefined = Reflect.getOwnMetadata(METADATA.method, prototype, property);
    const next: MethodMetadata = { ...own, ...patch, memberKind: worstKind(own?.memberKind, memberKind) };
    Reflect.defineMetadata(METADATA.method, Object.freeze(next), prototype, property);
    // Fields live on instances, not on the prototype: remember every decorated name so the
    // scanner finds them too (and the builder can refuse them) instead of dropping them.
    const members: ReadonlySet<string | symbol> =
      Reflect.getOwnMetadata(METADATA.members, prototype) ?? new Set();
    if (!members.has(property))
      Reflect.defineMetadata(METADATA.members, new Set([...members, property]), prototype);
  },

  /**
   * Records a capability decorator's options on a method. The same capability applied twice
   * keeps the upper decorator's options (decorators apply bottom-up), like any other slot.
   */
  writeCapability(
    prototype: object,
    property: string | symbol,
    memberKind: MemberKind,
    recorded: RecordedCapability,
  ): void {
    const own = metadataStore.ownMethod(prototype, property)?.capabilities ?? [];
    const others = own.filter((entry) => entry.capability.name !== recorded.capability.name);
    metadataStore.writeMethod(prototype, property, memberKind, {
      capabilities: Object.freeze([...others, Object.freeze(recorded)]),
    });
  },

  /** Records a capability decorator on a service class (`Capability.classes`), replacing its earlier record there. */
  writeServiceCapability(target: object, recorded: RecordedCapability): void {
    const own = metadataStore.ownService(target)?.capabilities ?? [];
    const others = own.filter((entry) => entry.capability.name !== recorded.capability.name);
    metadataStore.writeService(target, { capabilities: Object.freeze([...others, Object.freeze(recorded)]) });
  },

  /** Names decorated on exactly this prototype (methods, accessors and fields). */
  ownMembers(prototype: object): ReadonlySet<string | symbol> {
    return Reflect.getOwnMetadata(METADATA.members, prototype) ?? new Set();
  },

  /** The record declared on exactly this prototype, ignoring parents. */
  ownMethod(prototype: object, property: string | symbol): MethodMetadata | undefined {
    return Reflect.getOwnMetadata(METADATA.method, prototype, property);
  },

  writeService(target: object, patch: Partial<ServiceMetadata>): void {
    const own: ServiceMetadata | undefined = Reflect.getOwnMetadata(METADATA.service, target);
    Reflect.defineMetadata(METADATA.service, Object.freeze({ ...own, ...patch }), target);
  },

  /**
   * Class metadata with inheritance: each slot (`service`, `budget`, …) comes from the
   * nearest class in the chain that declared it, so a subclass's own `@McpService()`
   * does not hide its parent's class-level `@Budget`.
   */
  service(target: Function): ServiceMetadata | undefined {
    const chain: ServiceMetadata[] = [];
    for (
      let current: unknown = target;
      typeof current === "function" && current !== Function.prototype;
      current = Object.getPrototypeOf(current)
    ) {
      const own: ServiceMetadata | undefined = Reflect.getOwnMetadata(METADATA.service, current);
      if (own) chain.push(own);
    }
    if (chain.length === 0) return undefined;
    const merged: ServiceMetadata = Object.assign({}, ...chain.reverse());
    // Capabilities by name: a subclass's own record of one hides only its parent's record of that one.
    const byName = new Map<string, RecordedCapability>();
    for (const own of chain)
      for (const recorded of own.capabilities ?? []) byName.set(recorded.capability.name, recorded);
    if (byName.size > 0) merged.capabilities = Object.freeze([...byName.values()]);
    return Object.freeze(merged);
  },

  ownService(target: object): ServiceMetadata | undefined {
    return Reflect.getOwnMetadata(METADATA.service, target);
  },

  writeModule(target: Function, options: unknown): void {
    Reflect.defineMetadata(METADATA.module, options, target);
  },

  module<T>(target: Function): T | undefined {
    return Reflect.getOwnMetadata(METADATA.module, target);
  },
};

/** A getter stays a getter even if another decorator on it guessed "method". */
function worstKind(previous: MemberKind | undefined, next: MemberKind): MemberKind {
  return previous && previous !== "method" ? previous : next;
}
