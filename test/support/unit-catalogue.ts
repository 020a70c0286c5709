import type { Registry } from "../../src/builder/registry.js";
import { Catalogue } from "../../src/catalogue/catalogue.js";
import { InMemoryEventBus } from "../../src/events/in-memory-event-bus.js";
import type { Logger } from "../../src/logging/logger.js";

const silent: Logger = { debug() {}, info() {}, warn() {}, error() {} };

/**
 * A real catalogue (no search, nothing hidden) attached to a registry of hand-made
 * operations, for unit tests of the protocol operations: what `McpFactory` gives them.
 * Each definition needs `capabilities` (a Map), as a built one has.
 */
export function catalogueOf(registry: Partial<Registry>): Catalogue {
  const catalogue = new Catalogue({ search: false, pinned: [] });
  catalogue.attach(
    {
      tools: new Map(),
      prompts: new Map(),
      staticResources: new Map(),
      templates: [],
      ...registry,
    } as unknown as Registry,
    new InMemoryEventBus(),
    silent,
  );
  return catalogue;
}
