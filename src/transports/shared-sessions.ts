import type { ServerResponse } from "node:http";
import type { SessionLimits, SessionRecord, SessionStore } from "../sessions/session-store.js";
import type { AuthenticatedRequest } from "./authenticate.js";
import type { HttpSession } from "./http-session.js";
import { sessionBinding } from "./session-binding.js";
import type { SessionBinding, SessionHost } from "./session-host.js";
import type { SessionRelay } from "./session-relay.js";
import { reviveTransport, STANDALONE_STREAM_ID } from "./session-revival.js";

/** What the shared-session logic needs from the session router. */
export interface SharedSessionsDeps {
  readonly app: SessionHost;
  readonly store: SessionStore;
  readonly limits: SessionLimits;
  /** Present when the store carries messages between instances. */
  readonly relay: SessionRelay | undefined;
  /** This instance's sessions (copies of shared ones) by id. */
  readonly sessions: Map<string, HttpSession>;
  /** A new transport and handler view of session `id`, not yet connected. */
  newSession(id: string, principal: string | undefined): HttpSession;
  /** Forgets a session whose transport closed. */
  forget(session: HttpSession): void;
  /** Whether `req` may use `session` (its principal). */
  mayUse(session: HttpSession, req: AuthenticatedRequest): boolean;
  /** True once the router stopped. */
  isClosed(): boolean;
}

/**
 * How the session router ties its sessions to the session store: what the app's session
 * saves and reads there (`bindingOf`), and, for a shared store, how an instance serves a
 * session it does not hold (`sharedSession` rebuilds it from its record, once, whatever
 * the requests waiting for it), records the instance holding its GET stream
 * (`holdStream`) and relays what belongs to another instance (the binding's `wrap`).
 */
export function sharedSessions(deps: SharedSessionsDeps) {
  const { app, store, limits, relay, sessions } = deps;
  /** Shared sessions being rebuilt here, so concurrent requests of one session rebuild it once. */
  const reviving = new Map<string, Promise<HttpSession | undefined>>();

  const bindingOf = (session: HttpSession, revive?: SessionRecord): SessionBinding =>
    sessionBinding(session, revive, { store, limits, relay, logger: app.logger });

  /** Rebuilds here a shared session opened on another instance (once, whatever the requests waiting for it). */
  const revive = (id: string): Promise<HttpSession | undefined> => {
    let pending = reviving.get(id);
    if (!pending) {
      pending = rebuild(deps, id, bindingOf).finally(() => reviving.delete(id));
      reviving.set(id, pending);
    }
    return pending;
  };

  /**
   * The session a request names, checked against the shared store: this instance's copy
   * when the session is still live (the check counts as its activity), a copy rebuilt from
   * its record when this instance holds none, or nothing when it ended (DELETE or idle
   * expiry, on any instance; a stale copy here is closed).
   */
  const sharedSession = async (id: string, req: AuthenticatedRequest): Promise<HttpSession | undefined> => {
    const local = sessions.get(id);
    if (!local) return revive(id);
    if (!deps.mayUse(local, req)) return local;
    return refreshed(deps, id, local);
  };

  const holdStream = (session: HttpSession, req: AuthenticatedRequest, res: ServerResponse) =>
    holdStreamHere(deps, session, req, res);

  return { bindingOf, holdStream, sharedSession };
}

/**
 * Makes this instance the holder of the session's GET stream while `res` is open: the
 * session's notifications outside calls are sent here, wherever they start.
 */
async function holdStreamHere(
  { relay, store }: SharedSessionsDeps,
  session: HttpSession,
  req: AuthenticatedRequest,
  res: ServerResponse,
): Promise<void> {
  if (!relay) return;
  // A GET resuming a call's stream (after Last-Event-ID) carries that call's messages only.
  const lastEventId = req.headers["last-event-id"];
  if (typeof lastEventId === "string" && session.store?.getStreamIdForEventId) {
    const streamId = await session.store.getStreamIdForEventId(lastEventId);
    if (streamId !== undefined && streamId !== STANDALONE_STREAM_ID) return;
  }
  session.streams++;
  res.once("close", () => {
    session.streams--;
    if (session.streams > 0 || session.ended) return;
    store.update(session.id, { release: relay.instanceId }).catch(() => {});
  });
  await store.update(session.id, { holder: relay.instanceId });
}

/** A copy here of shared session `id`, from its record (none when it ended or the router stopped). */
async function rebuild(
  deps: SharedSessionsDeps,
  id: string,
  bindingOf: (session: HttpSession, revive?: SessionRecord) => SessionBinding,
): Promise<HttpSession | undefined> {
  const { app, store, limits, relay, sessions } = deps;
  await relay?.start();
  const record = await store.get(id, limits);
  if (!record || deps.isClosed()) return undefined;
  const session = deps.newSession(id, record.principal);
  session.ending = false;
  reviveTransport(session.transport, id);
  sessions.set(id, session);
  try {
    await app.connect(session.transport, { session: bindingOf(session, record) });
  } catch (error) {
    deps.forget(session);
    throw error;
  }
  return session;
}

/**
 * This instance's copy of a session, brought up to date with its record; none, and the
 * copy closed, when the session ended elsewhere.
 */
async function refreshed(
  { app, store, limits }: SharedSessionsDeps,
  id: string,
  local: HttpSession,
): Promise<HttpSession | undefined> {
  // Read whole (one round trip, as a touch would be): another instance may have changed it.
  const record = await store.get(id, limits);
  if (record) {
    local.apply?.(record);
    return local;
  }
  local.transport.close().catch((error) => app.logger.warn("closing an ended session's copy failed", error));
  return undefined;
}
