import type { MethodMetadata, ToolOptions } from "../metadata/definitions.js";
import type { ScannedMember } from "./scan-service.js";

/**
 * A service whose operations are declared as data rather than with decorators: the
 * framework's own tools (`read_resource`, `search_resource`) use it, so nothing applies
 * decorators at run time. The builder treats its members exactly like scanned ones.
 */
export interface DeclaredService {
  readonly serviceClass: Function;
  readonly instance: object;
  readonly members: readonly ScannedMember[];
}

/**
 * One tool of a declared service: the method `property` of its instance, with the options
 * `@Tool` would take.
 *
 * @example
 * ```ts
 * const service: DeclaredService = {
 *   serviceClass: ResourceTools, instance: tools,
 *   members: [declareTool(ResourceTools, "readResource", { name: "read_resource", input })],
 * };
 * ```
 */
export function declareTool(
  serviceClass: Function,
  property: string,
  options: ToolOptions,
  more: Omit<Partial<MethodMetadata>, "memberKind" | "tool"> = {},
): ScannedMember {
  const metadata: MethodMetadata = Object.freeze({
    ...more,
    memberKind: "method",
    tool: Object.freeze({ ...options }),
  });
  return Object.freeze({ property, metadata, declaredOn: serviceClass });
}
