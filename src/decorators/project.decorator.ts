import { metadataStore } from "../metadata/store.js";
import { copyList, copyOptions } from "./copy-options.js";
import { type MethodDecorator, memberKindOf } from "./member-kind.js";

/** Options of `@Project`. */
export interface ProjectOptions {
  /** Fields returned when the client asks for none (default: all of `fields`). */
  defaultFields?: readonly string[];
}

/**
 * Projection for a tool that is not paginated: adds an optional `fields` input (names
 * from `fields`; an unknown name is an invalid argument), and the result (an object, an
 * array of objects, or an object's `items`) keeps only those fields, `defaultFields` when
 * none are asked. The handler sees `fields` in its input, to push it down if it can.
 *
 * @example
 * ```ts
 * @Tool({ input: { id: z.string() } })
 * @Project(["id", "title", "body", "author"], { defaultFields: ["id", "title"] })
 * article({ id }: { id: string }) { return this.repo.get(id); }
 * // client: { id: "a1", fields: ["title", "author"] } → { title: "…", author: "…" }
 * ```
 */
export function Project(fields: readonly string[], options: ProjectOptions = {}): MethodDecorator {
  const recorded = Object.freeze({ fields: copyList(fields), options: copyOptions(options) });
  return (target, property, descriptor) => {
    metadataStore.writeMethod(target, property, memberKindOf(descriptor), { project: recorded });
  };
}
