import { LruCache } from "../cache/lru-cache.js";
import { SystemClock } from "../clock/clock.js";
import type { ProviderEntry } from "../decorators/mcp-module.decorator.js";
import { InMemoryEventBus } from "../events/in-memory-event-bus.js";
import { StderrLogger } from "../logging/logger.js";
import { MemorySessionStore } from "../sessions/memory-session-store.js";
import { MemoryStorage } from "../storage/memory-storage.js";
import { BpeTokenCounter } from "../tokenizer/bpe-token-counter.js";
import { CACHE, CLOCK, EVENT_BUS, LOGGER, SESSION_STORE, STORAGE, TOKEN_COUNTER } from "../tokens.js";

/**
 * The framework's default providers. A module (or test) provider for the same token
 * replaces one, which is how storage, cache, bus, clock and tokenizer get swapped.
 */
export function frameworkProviders(): ProviderEntry[] {
  return [
    { provide: CLOCK, useClass: SystemClock },
    { provide: EVENT_BUS, useClass: InMemoryEventBus },
    { provide: LOGGER, useClass: StderrLogger },
    { provide: CACHE, useFactory: () => new LruCache() },
    { provide: TOKEN_COUNTER, useFactory: () => new BpeTokenCounter() },
    { provide: STORAGE, useFactory: () => new MemoryStorage() },
    { provide: SESSION_STORE, useFactory: () => new MemorySessionStore() },
  ];
}
