import type { ServerResponse } from "node:http";
import type { Logger } from "../logging/logger.js";
import type { HttpSession } from "./http-session.js";

const MAX_TIMER_MS = 2 ** 31 - 1;

/** What the activity clock of the HTTP sessions needs. */
export interface ActivitySettings {
  /** `sessionIdleTimeoutMs`: 0 or Infinity never close a session for idleness. */
  readonly idleTimeoutMs: number;
  /** How often an open request touches the session's shared record (0: never). */
  readonly keepAliveMs: number;
  /** Touches the session's record in a shared store (its idle expiry starts again there). */
  readonly touch: ((sessionId: string) => Promise<unknown>) | undefined;
  readonly logger: Logger;
}

/**
 * The idle clock of the HTTP sessions: each response of a session counts as its activity until
 * it ends (an open GET stream too); once none is left, the session is closed after
 * `idleTimeoutMs` without a new one. While requests are open, a shared session's record is
 * touched every `keepAliveMs`, so the store does not expire a session in use here.
 *
 * @example
 * const { track } = sessionActivity({ idleTimeoutMs: 60_000, keepAliveMs: 0, touch: undefined, logger });
 * track(session, res); // the idle clock of `session` restarts when `res` closes
 */
export function sessionActivity(settings: ActivitySettings): {
  track(session: HttpSession, res: ServerResponse): void;
} {
  const { idleTimeoutMs, keepAliveMs, touch, logger } = settings;

  const armIdleTimer = (session: HttpSession) => {
    if (idleTimeoutMs === 0 || idleTimeoutMs === Number.POSITIVE_INFINITY) return;
    if (session.ended || session.timer || session.open > 0) return;
    const wait = Math.min(Math.max(0, session.idleSince + idleTimeoutMs - Date.now()), MAX_TIMER_MS);
    session.timer = setTimeout(() => {
      session.timer = undefined;
      if (session.ended || session.open > 0) return;
      if (Date.now() - session.idleSince < idleTimeoutMs) return armIdleTimer(session);
      logger.debug(`closing HTTP session ${session.transport.sessionId}: idle for ${idleTimeoutMs} ms`);
      session.transport.close().catch((error) => logger.warn("closing an idle session failed", error));
    }, wait);
    // An idle session never keeps the process alive.
    session.timer.unref();
  };

  /** Counts `res` as activity of `session` until it ends; the idle clock starts when none is left. */
  const track = (session: HttpSession, res: ServerResponse) => {
    session.open++;
    clearTimeout(session.timer);
    session.timer = undefined;
    if (touch && keepAliveMs > 0 && !session.keepAlive) {
      session.keepAlive = setInterval(() => {
        touch(session.id).catch(() => {});
      }, keepAliveMs);
      session.keepAlive.unref();
    }
    res.once("close", () => {
      session.open--;
      if (session.open > 0) return;
      clearInterval(session.keepAlive);
      session.keepAlive = undefined;
      session.idleSince = Date.now();
      armIdleTimer(session);
    });
  };

  return { track };
}
