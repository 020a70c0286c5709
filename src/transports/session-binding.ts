import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { Logger } from "../logging/logger.js";
import type { SessionLimits, SessionRecord, SessionStore } from "../sessions/session-store.js";
import type { HttpSession } from "./http-session.js";
import type { SessionBinding } from "./session-host.js";
import type { RelayedSession, SessionRelay } from "./session-relay.js";

/** Where a session's record lives, and the relay between instances when the store carries messages. */
export interface BindingDeps {
  readonly store: SessionStore;
  readonly limits: SessionLimits;
  readonly relay: SessionRelay | undefined;
  readonly logger: Logger;
}

/**
 * What the app's session saves to and reads from the session store: its changes (a change of
 * subscriptions is announced to the instance holding the GET stream), whether closing it ends
 * the session, whether it notifies from here, and, with a relay, the wrapper that carries its
 * messages between instances. `revive`: the record of a session opened on another instance.
 *
 * @example
 * await app.connect(transport, { session: sessionBinding(session, undefined, { store, limits, relay, logger }) });
 */
export function sessionBinding(
  session: HttpSession,
  revive: SessionRecord | undefined,
  deps: BindingDeps,
): SessionBinding {
  const { store, limits, relay } = deps;
  return {
    revive,
    persist: async (change) => {
      await store.update(session.id, change);
      if (!relay || (change.subscribe === undefined && change.unsubscribe === undefined)) return;
      // The instance holding the GET stream sends resource updates: it must know the subscriptions now.
      const holder = (await store.get(session.id, limits))?.streamHolder;
      if (holder !== undefined) await relay.changed(session.id, holder);
    },
    endsOnClose: () => !store.shared || session.ending,
    notifiesHere: () => !relay || session.streams > 0,
    follow: (apply) => {
      session.apply = apply;
    },
    ...(relay
      ? {
          wrap: (transport: Transport) => {
            const relayed = relay.wrap(session.id, transport, relayedSession(session, deps));
            session.detach = relayed.detach;
            return relayed.transport;
          },
        }
      : {}),
  };
}

/** How the relay reaches this instance's copy of a shared session. */
function relayedSession(session: HttpSession, deps: BindingDeps): RelayedSession {
  const { store, limits, logger } = deps;
  return {
    holdsStream: () => session.streams > 0,
    streamHolder: async () => (await store.get(session.id, limits))?.streamHolder,
    refresh: async () => {
      const record = await store.get(session.id, limits);
      if (record) session.apply?.(record);
    },
    end: () => {
      session.transport
        .close()
        .catch((error) => logger.warn("closing an ended session's copy failed", error));
    },
  };
}
