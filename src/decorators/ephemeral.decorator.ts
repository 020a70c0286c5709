import type { EphemeralOptions } from "../metadata/definitions.js";
import { metadataStore } from "../metadata/store.js";
import { copyOptions } from "./copy-options.js";
import { type MethodDecorator, memberKindOf } from "./member-kind.js";

/**
 * Stores a tool's large result as a short-lived resource instead of returning it: the
 * tool answers with a `resource_link` and a summary, and the client reads or searches
 * the resource in slices (`read_resource`, `search_resource`). By default only results
 * over the budget (the method's, class's or app's, else 2,000 tokens) are stored.
 *
 * @example
 * ```ts
 * @Tool({ input: { query: z.string() } })
 * @Ephemeral({ ttl: 3_600_000, mimeType: "application/json" })
 * searchLogs({ query }: { query: string }) { return this.logs.search(query); }
 * ```
 */
export function Ephemeral(options: EphemeralOptions = {}): MethodDecorator {
  const recorded = copyOptions(options);
  return (target, property, descriptor) => {
    metadataStore.writeMethod(target, property, memberKindOf(descriptor), { ephemeral: recorded });
  };
}
