import type { InputSchema, PromptOptions } from "../metadata/definitions.js";
import { metadataStore } from "../metadata/store.js";
import { copyOptions } from "./copy-options.js";
import type { HandlerDecorator, HandlerInput } from "./handler-input.js";
import { memberKindOf } from "./member-kind.js";

/**
 * Exposes a method as an MCP prompt. Arguments are a zod shape of strings; the method
 * returns a string (one user message), an array of messages, or a full `GetPromptResult`.
 * The compiler checks the method's first parameter against `input`, as for `@Tool`; without
 * `input`, the arguments as sent (strings).
 *
 * @example
 * ```ts
 * @Prompt({ description: "Review code", input: { code: z.string() } })
 * review({ code }: { code: string }) { return `Please review:\n${code}`; }
 * ```
 */
export function Prompt<S extends InputSchema = never>(
  options: PromptOptions<S> = {},
): HandlerDecorator<HandlerInput<S, Record<string, string>>> {
  const recorded = copyOptions(options);
  return (target, property, descriptor) => {
    metadataStore.writeMethod(target, property, memberKindOf(descriptor), { prompt: recorded });
  };
}
