import { describe, expect, it } from "vitest";
import type { SessionStore } from "../../../src/sessions/session-store.js";
import {
  DEFAULT_MAX_SESSIONS,
  DEFAULT_SESSION_IDLE_TIMEOUT_MS,
} from "../../../src/transports/http-handler.js";
import { MemoryEventStore } from "../../../src/transports/memory-event-store.js";
import { routerSettings } from "../../../src/transports/router-settings.js";
import { ScopedEventStore, type SharedEventStore } from "../../../src/transports/scoped-event-store.js";
import type { SessionHost } from "../../../src/transports/session-host.js";
import { SessionRelay } from "../../../src/transports/session-relay.js";

const silent = { debug() {}, info() {}, warn() {}, error() {} };
const host = (extra: Partial<SessionHost> = {}): SessionHost => ({
  connect: async () => {},
  logger: silent,
  ...extra,
});

describe("routerSettings", () => {
  it("fills the defaults: sessions in memory, one bounded memory event store per session, no relay", () => {
    const settings = routerSettings(host(), {});
    expect(settings.maxSessions).toBe(DEFAULT_MAX_SESSIONS);
    expect(settings.idleTimeoutMs).toBe(DEFAULT_SESSION_IDLE_TIMEOUT_MS);
    expect(settings.limits).toEqual({
      maxSessions: DEFAULT_MAX_SESSIONS,
      idleTimeoutMs: DEFAULT_SESSION_IDLE_TIMEOUT_MS,
    });
    expect(settings.store.shared).toBe(false);
    expect(settings.sharedSessions).toBe(false);
    expect(settings.relay).toBeUndefined();
    expect(settings.stateless).toBe(false);
    expect(settings.makeEventStore?.("s")).toBeInstanceOf(MemoryEventStore);
  });

  it("touches a shared record a third of the idle timeout apart, at least a second, and never without a timeout", () => {
    expect(routerSettings(host(), { sessionIdleTimeoutMs: 60_000 }).keepAliveMs).toBe(20_000);
    expect(routerSettings(host(), { sessionIdleTimeoutMs: 1500 }).keepAliveMs).toBe(1000);
    expect(routerSettings(host(), { sessionIdleTimeoutMs: 0 }).keepAliveMs).toBe(0);
    expect(routerSettings(host(), { sessionIdleTimeoutMs: Number.POSITIVE_INFINITY }).keepAliveMs).toBe(0);
  });

  it("makes event stores as eventStore says: none, the caller's, or a per-session view of a shared one", () => {
    expect(routerSettings(host(), { eventStore: false }).makeEventStore).toBeUndefined();
    const own = new MemoryEventStore();
    expect(routerSettings(host(), { eventStore: () => own }).makeEventStore?.("s")).toBe(own);
    const shared = {
      ttlMs: 1000,
      storeEvent: async () => "e",
      replayEventsAfter: async () => "s",
      follow: async () => {},
      endStream: async () => {},
      canResumeAfter: async () => true,
      getStreamIdForEventId: async () => "s",
    } as unknown as SharedEventStore;
    const settings = routerSettings(host(), { eventStore: shared });
    expect(settings.sharedEvents).toBe(shared);
    expect(settings.makeEventStore?.("s")).toBeInstanceOf(ScopedEventStore);
  });

  it("relays between instances when the app's session store is shared and carries messages", () => {
    const store = {
      shared: true,
      publish: async () => 0,
      listen: async () => async () => {},
    } as unknown as SessionStore;
    const settings = routerSettings(host({ sessionStore: store }), {});
    expect(settings.sharedSessions).toBe(true);
    expect(settings.relay).toBeInstanceOf(SessionRelay);
  });

  it("fails at once on a bad option or a stateless server that cannot be one, naming the option", () => {
    expect(() => routerSettings(host(), { maxSessions: 0 })).toThrow(
      /HTTP option maxSessions must be a number >= 1/,
    );
    expect(() => routerSettings(host(), { eventStoreMaxBytes: Number.NaN })).toThrow(/eventStoreMaxBytes/);
    expect(() =>
      routerSettings(host(), { stateless: true, eventStore: () => new MemoryEventStore() }),
    ).toThrow(/in stateless mode every request stands alone/);
    expect(routerSettings(host(), { stateless: true }).stateless).toBe(true);
  });
});
