import { metadataStore } from "../metadata/store.js";
import { type MethodDecorator, memberKindOf } from "./member-kind.js";

/**
 * After the method succeeds (not on a thrown error or an `isError` result), emits these
 * events on the app's event bus, before the response is sent, so the caller's next read
 * already misses the cache.
 *
 * @example
 * ```ts
 * @Tool({ input: { site: z.string(), slug: z.string() } })
 * @Invalidates("articles.changed")
 * publish(input: { site: string; slug: string }) { return this.repo.publish(input); }
 * ```
 */
export function Invalidates(...events: string[]): MethodDecorator {
  const recorded = Object.freeze([...events]);
  return (target, property, descriptor) => {
    metadataStore.writeMethod(target, property, memberKindOf(descriptor), { invalidates: recorded });
  };
}
