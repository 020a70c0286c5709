// Draining an app's 2025 sessions on close(): which requests are still unanswered, which
// messages are still on their way, and the answers of the calls cut at the deadline.
import type { JSONRPCMessage, RequestId } from "@modelcontextprotocol/sdk/types.js";
import type { ServedSession, Session } from "../protocol/session.js";
import type { TransportHooks } from "../transports/wrapped-transport.js";
import { settledWithin } from "./settled-within.js";

/** How long `close()` gives aborted handlers to return before naming them in a warning. */
export const HANDLER_GRACE_MS = 200;
export const SHUTTING_DOWN =
  "Server is shutting down: this request was not run; send it again after the restart";
const CUT_AT_DEADLINE =
  "Server is shutting down: this call did not finish within the drain deadline (drainTimeoutMs) and was cancelled";

/** The error answers `close()` sends for calls it cuts: the only answers a cut request may still get. */
const cutAnswers = new WeakSet<object>();

export function shutdownError(id: RequestId, message: string): JSONRPCMessage {
  return { jsonrpc: "2.0", id, error: { code: -32000, message } };
}

/** A request was answered (or cancelled, or cut): forget it, and wake `close()` when none is left. */
export function settleRequest(session: Session, id: RequestId): void {
  if (session.unanswered.delete(id) && session.unanswered.size === 0) session.whenAllAnswered?.();
}

/** Resolves once every request the session had received is answered. */
export function allAnswered(session: Session): Promise<void> {
  if (session.unanswered.size === 0) return Promise.resolve();
  return new Promise((resolve) => {
    session.whenAllAnswered = resolve;
  });
}

/**
 * The `send` hook of a session's transport (`sessionTransport`): the app learns which requests
 * are answered and how many messages are still on their way, and a late answer to a request
 * `close()` already cut is dropped.
 */
export function trackSends(session: Session): NonNullable<TransportHooks["send"]> {
  // One callback per session, not a closure per message: every response passes here.
  const sent = () => {
    session.sendsPending--;
    if (session.sendsPending === 0) session.whenAllSent?.();
  };
  return (message, options, forward) => {
    const id = "id" in message && ("result" in message || "error" in message) ? message.id : undefined;
    // A request cut by close() gets its shutdown error only, never a late answer from its handler.
    if (id !== undefined && session.cut.has(id) && !cutAnswers.has(message)) return Promise.resolve();
    const sending = forward(message, options);
    // Handed to the transport, the request is answered; close() waits for the send itself below.
    if (id !== undefined) settleRequest(session, id);
    session.sendsPending++;
    sending.then(sent, sent);
    return sending;
  };
}

/** Resolves once every message the session handed to its transport is sent (or failed). */
export function allSent(session: ServedSession): Promise<void> {
  if (session.sendsPending === 0) return Promise.resolve();
  return new Promise((resolve) => {
    session.whenAllSent = resolve;
  });
}

/**
 * Cuts a call still running at the drain deadline: its request is settled and answered with
 * the shutdown error, the only answer it may still get (a late one from its handler is dropped).
 */
export function cutCall(session: ServedSession, id: RequestId): Promise<void> | undefined {
  session.cut.add(id);
  settleRequest(session, id);
  const answer = shutdownError(id, CUT_AT_DEADLINE);
  cutAnswers.add(answer);
  return session.server.transport?.send(answer);
}

/**
 * Waits up to `drainMs` for the requests the sessions already received to be answered (no new
 * one is tracked once the app drains), answers those still running at the deadline with an
 * error, then waits (a second at most) for the messages on their way to be sent.
 */
export async function drainSessions(sessions: readonly ServedSession[], drainMs: number): Promise<void> {
  const pending = sessions.filter((s) => s.unanswered.size > 0).map(allAnswered);
  if (pending.length > 0 && !(await settledWithin(Promise.allSettled(pending), drainMs))) {
    // Cut: answer every call still running with an error, instead of leaving its client waiting.
    const cuts = sessions.flatMap((session) =>
      [...session.unanswered.keys()].map((id) => cutCall(session, id)),
    );
    await settledWithin(Promise.allSettled(cuts), 1000);
  }
  // Responses may still be on their way (a store write before an SSE write): let them go out.
  await new Promise((resolve) => setImmediate(resolve));
  await settledWithin(Promise.allSettled(sessions.map(allSent)), 1000);
}
