import type { PromptOptions } from "../metadata/definitions.js";
import { metadataStore } from "../metadata/store.js";
import { copyOptions } from "./copy-options.js";
import { type MethodDecorator, memberKindOf } from "./member-kind.js";

/**
 * Exposes a method as an MCP prompt. Arguments are a zod shape of strings; the method
 * returns a string (one user message), an array of messages, or a full `GetPromptResult`.
 *
 * @example
 * ```ts
 * @Prompt({ description: "Review code", input: { code: z.string() } })
 * review({ code }: { code: string }) { return `Please review:\n${code}`; }
 * ```
 */
export function Prompt(options: PromptOptions = {}): MethodDecorator {
  const recorded = copyOptions(options);
  return (target, property, descriptor) => {
    metadataStore.writeMethod(target, property, memberKindOf(descriptor), { prompt: recorded });
  };
}
