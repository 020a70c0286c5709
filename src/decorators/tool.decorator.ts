import type { ToolOptions } from "../metadata/definitions.js";
import { metadataStore } from "../metadata/store.js";
import { copyOptions } from "./copy-options.js";
import { type MethodDecorator, memberKindOf } from "./member-kind.js";

/**
 * Exposes a service method as an MCP tool. Its handler receives the validated input and a
 * {@link ToolContext}.
 *
 * @example
 * ```ts
 * @Tool({ description: "Add two numbers", input: { a: z.number(), b: z.number() } })
 * add({ a, b }: { a: number; b: number }) { return { sum: a + b }; }
 * ```
 */
export function Tool(options: ToolOptions = {}): MethodDecorator {
  const recorded = copyOptions(options);
  return (target, property, descriptor) => {
    metadataStore.writeMethod(target, property, memberKindOf(descriptor), { tool: recorded });
  };
}
