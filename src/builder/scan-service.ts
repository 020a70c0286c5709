import type { MethodMetadata } from "../metadata/definitions.js";
import { metadataStore } from "../metadata/store.js";

/** One decorated member found on a service class, with the metadata that applies to it. */
export interface ScannedMember {
  readonly property: string | symbol;
  readonly metadata: MethodMetadata;
  /** The class whose decorators won: the nearest one in the chain that decorated the member. */
  readonly declaredOn: Function;
}

/**
 * Finds every decorated member of a service class, walking the prototype chain so that a
 * subclass inherits its parents' tools. For each member, the nearest class that decorated
 * it wins: an override without decorators keeps the parent's metadata, and re-decorating
 * in a subclass replaces it as a whole.
 */
export function scanService(serviceClass: Function): ScannedMember[] {
  const chain: object[] = [];
  for (
    let prototype: object | null = serviceClass.prototype;
    prototype && prototype !== Object.prototype;
    prototype = Object.getPrototypeOf(prototype)
  ) {
    chain.push(prototype);
  }
  const properties = new Set(
    chain.flatMap((prototype) => [...Reflect.ownKeys(prototype), ...metadataStore.ownMembers(prototype)]),
  );
  properties.delete("constructor");
  const found: ScannedMember[] = [];
  for (const property of properties) {
    // Metadata may sit on a subclass that re-decorated an inherited method without redefining it.
    for (const prototype of chain) {
      const metadata = metadataStore.ownMethod(prototype, property);
      if (metadata) {
        found.push({ property, metadata, declaredOn: prototype.constructor });
        break;
      }
    }
  }
  return found;
}
