import type { McpServiceOptions } from "../metadata/definitions.js";
import { metadataStore } from "../metadata/store.js";
import { injectable } from "./tsyringe.js";

/**
 * Marks a class as an MCP service: a singleton per app, built by the DI container, whose
 * decorated methods become tools, resources and prompts.
 *
 * @example
 * ```ts
 * @McpService()
 * export class MathService {
 *   constructor(private readonly clock: SystemClock) {}
 *   @Tool() now() { return { now: this.clock.now() }; }
 * }
 * ```
 */
export function McpService(options: McpServiceOptions = {}): ClassDecorator {
  const recorded = Object.freeze({ ...options });
  return (target) => {
    metadataStore.writeService(target, { service: recorded });
    // tsyringe's `injectable()` only records constructor parameter types; it touches no container.
    injectable()(target as unknown as new (...args: any[]) => unknown);
  };
}
