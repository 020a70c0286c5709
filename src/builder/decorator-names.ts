/**
 * The decorator that writes each metadata slot, as users write it (without `@`), for start-up
 * messages. Capabilities name their own decorator (`Capability.decorator`).
 */
export const DECORATOR_OF_SLOT: Readonly<Record<string, string>> = {
  tool: "Tool",
  resource: "Resource",
  prompt: "Prompt",
  paginated: "Paginated",
  cached: "Cached",
  budget: "Budget",
  ephemeral: "Ephemeral",
  interceptors: "UseInterceptors",
};
