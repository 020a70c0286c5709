import { describe, expect, it } from "vitest";
import { LruCache } from "../../../src/cache/lru-cache.js";
import { SystemClock } from "../../../src/clock/clock.js";
import { container } from "../../../src/decorators/tsyringe.js";
import { InMemoryEventBus } from "../../../src/events/in-memory-event-bus.js";
import { StderrLogger } from "../../../src/logging/logger.js";
import { frameworkProviders } from "../../../src/runtime/framework-providers.js";
import { MemorySessionStore } from "../../../src/sessions/memory-session-store.js";
import { MemoryStorage } from "../../../src/storage/memory-storage.js";
import { BpeTokenCounter } from "../../../src/tokenizer/bpe-token-counter.js";
import {
  CACHE,
  CLOCK,
  EVENT_BUS,
  LOGGER,
  SESSION_STORE,
  STORAGE,
  TOKEN_COUNTER,
} from "../../../src/tokens.js";

describe("frameworkProviders", () => {
  it("provides each framework token once, with its default implementation", () => {
    const providers = frameworkProviders();
    const tokens = providers.map((entry) => ("provide" in entry ? entry.provide : entry));
    expect(tokens).toEqual([CLOCK, EVENT_BUS, LOGGER, CACHE, TOKEN_COUNTER, STORAGE, SESSION_STORE]);
    const child = container.createChildContainer();
    for (const entry of providers) {
      if (!("provide" in entry)) throw new Error("a framework provider names its token");
      if ("useClass" in entry) child.register(entry.provide, { useClass: entry.useClass });
      else if ("useFactory" in entry) child.register(entry.provide, { useFactory: entry.useFactory });
    }
    expect(child.resolve(CLOCK)).toBeInstanceOf(SystemClock);
    expect(child.resolve(EVENT_BUS)).toBeInstanceOf(InMemoryEventBus);
    expect(child.resolve(LOGGER)).toBeInstanceOf(StderrLogger);
    expect(child.resolve(CACHE)).toBeInstanceOf(LruCache);
    expect(child.resolve(TOKEN_COUNTER)).toBeInstanceOf(BpeTokenCounter);
    expect(child.resolve(STORAGE)).toBeInstanceOf(MemoryStorage);
    expect(child.resolve(SESSION_STORE)).toBeInstanceOf(MemorySessionStore);
  });

  it("makes fresh stateful defaults for every app: no cache or storage is shared between two", () => {
    const factoryOf = (token: symbol) => {
      const entry = frameworkProviders().find((e) => "provide" in e && e.provide === token);
      if (!entry || !("useFactory" in entry)) throw new Error("expected a factory");
      return entry.useFactory;
    };
    const child = container.createChildContainer();
    expect(factoryOf(CACHE as symbol)(child)).not.toBe(factoryOf(CACHE as symbol)(child));
    expect(factoryOf(STORAGE as symbol)(child)).not.toBe(factoryOf(STORAGE as symbol)(child));
  });
});
