import type { MethodMetadata } from "../metadata/definitions.js";

/**
 * The decorator that writes each metadata slot, as users write it (without `@`), for start-up
 * messages. Capabilities name their own decorator (`Capability.decorator`).
 */
export const DECORATOR_OF_SLOT: Readonly<Record<string, string>> = {
  tool: "Tool",
  resource: "Resource",
  prompt: "Prompt",
  interceptors: "UseInterceptors",
};

/** Every decorator a method carries, as users write them (`@Paginated`, `@RateLimit`), in recording order. */
export function decoratorsOn(metadata: MethodMetadata): string[] {
  const { memberKind: _kind, capabilities = [], ...slots } = metadata;
  return [
    ...Object.keys(slots).map((slot) => `@${DECORATOR_OF_SLOT[slot] ?? slot}`),
    ...capabilities.map((recorded) => recorded.capability.decorator),
  ];
}
