import type { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { describe, expect, it } from "vitest";
import type { SessionChange, SessionRecord, SessionStore } from "../../../src/sessions/session-store.js";
import { newHttpSession } from "../../../src/transports/http-session.js";
import { sessionBinding } from "../../../src/transports/session-binding.js";
import type { RelayedSession, SessionRelay } from "../../../src/transports/session-relay.js";

const silent = { debug() {}, info() {}, warn() {}, error() {} };
const limits = { maxSessions: 10, idleTimeoutMs: 1000 };

/** A store that records updates and answers `get` with `record`. */
function storeOf(shared: boolean, record?: Partial<SessionRecord>) {
  const updates: SessionChange[] = [];
  const store = {
    shared,
    update: async (_id: string, change: SessionChange) => void updates.push(change),
    get: async () => record as SessionRecord | undefined,
  } as unknown as SessionStore;
  return { store, updates };
}
const session = () => newHttpSession("s-1", {} as StreamableHTTPServerTransport, undefined, undefined);

describe("sessionBinding", () => {
  it("without a relay: saves changes, ends the session on close, notifies here, and wraps nothing", async () => {
    const { store, updates } = storeOf(false);
    const s = session();
    const binding = sessionBinding(s, undefined, { store, limits, relay: undefined, logger: silent });
    await binding.persist({ subscribe: "file:///a" });
    expect(updates).toEqual([{ subscribe: "file:///a" }]);
    s.ending = false;
    expect(binding.endsOnClose()).toBe(true); // an unshared store: closing always ends it
    expect(binding.notifiesHere()).toBe(true);
    expect(binding.wrap).toBeUndefined();
    const apply = () => {};
    binding.follow(apply);
    expect(s.apply).toBe(apply);
  });

  it("with a relay: announces a subscription change to the stream holder and wraps the transport", async () => {
    const { store } = storeOf(true, { streamHolder: "other" });
    const changed: Array<[string, string]> = [];
    let relayed: RelayedSession | undefined;
    const wrapped = {} as Transport;
    const relay = {
      changed: async (id: string, instance: string) => void changed.push([id, instance]),
      wrap: (_id: string, _transport: Transport, r: RelayedSession) => {
        relayed = r;
        return { transport: wrapped, detach: () => {} };
      },
    } as unknown as SessionRelay;
    const s = session();
    const binding = sessionBinding(s, undefined, { store, limits, relay, logger: silent });
    await binding.persist({ logLevel: "info" });
    expect(changed).toEqual([]); // not a subscription: nothing to announce
    await binding.persist({ unsubscribe: "file:///a" });
    expect(changed).toEqual([["s-1", "other"]]);
    s.ending = false;
    expect(binding.endsOnClose()).toBe(false); // a shared session's copy closing leaves it to the others
    expect(binding.notifiesHere()).toBe(false); // its GET stream is held elsewhere
    s.streams = 1;
    expect(binding.notifiesHere()).toBe(true);
    expect(binding.wrap?.({} as Transport)).toBe(wrapped);
    expect(s.detach).toBeTypeOf("function");
    expect(relayed?.holdsStream()).toBe(true);
    expect(await relayed?.streamHolder()).toBe("other");
  });
});
