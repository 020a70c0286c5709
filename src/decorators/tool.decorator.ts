import type { InputSchema, ToolOptions } from "../metadata/definitions.js";
import { metadataStore } from "../metadata/store.js";
import { copyOptions } from "./copy-options.js";
import type { HandlerDecorator, HandlerInput } from "./handler-input.js";
import { memberKindOf } from "./member-kind.js";

/**
 * Exposes a service method as an MCP tool. Its handler receives the validated input and a
 * {@link ToolContext}. The compiler checks the method's first parameter against `input`:
 * it receives the schema's output type (defaults applied) and may declare fewer properties,
 * never one the schema lacks or types differently. Without `input`, the raw arguments.
 *
 * @example
 * ```ts
 * @Tool({ description: "Add two numbers", input: { a: z.number(), b: z.number() } })
 * add({ a, b }: { a: number; b: number }) { return { sum: a + b }; }
 * ```
 */
export function Tool<S extends InputSchema = never>(
  options: ToolOptions<S> = {},
): HandlerDecorator<HandlerInput<S, Record<string, unknown>>> {
  const recorded = copyOptions(options);
  return (target, property, descriptor) => {
    metadataStore.writeMethod(target, property, memberKindOf(descriptor), { tool: recorded });
  };
}
