import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it, vi } from "vitest";
import {
  allAnswered,
  allSent,
  cutCall,
  drainSessions,
  settleRequest,
  trackSends,
} from "../../../src/app/drain.js";
import { newSession, type ServedSession, type Session } from "../../../src/protocol/session.js";
import { WrappedTransport } from "../../../src/transports/wrapped-transport.js";

/** A transport that records what it sends, each send resolved when the test says. */
function transport() {
  const sent: JSONRPCMessage[] = [];
  const pending: Array<() => void> = [];
  const inner = {
    send: (message: JSONRPCMessage) => {
      sent.push(message);
      return new Promise<void>((resolve) => pending.push(resolve));
    },
  } as unknown as Transport;
  const flush = () => {
    for (const resolve of pending.splice(0)) resolve();
  };
  /** The inner transport as the app's session transport sees it: its sends tracked for `session`. */
  const tracked = (session: Session) => new WrappedTransport(inner, { send: trackSends(session) });
  return { tracked, sent, flush };
}

const answer = (id: number): JSONRPCMessage => ({ jsonrpc: "2.0", id, result: {} });

describe("drain", () => {
  it("settles a request once its answer is handed to the transport, and waits for the send itself", async () => {
    const session = newSession(
      () => "s",
      () => undefined,
    );
    session.unanswered.set(1, undefined as never);
    const { tracked, flush } = transport();
    const t = tracked(session);
    let answered = false;
    const waiting = allAnswered(session).then(() => {
      answered = true;
    });
    void t.send(answer(1));
    await waiting;
    expect(answered).toBe(true);
    let sentAll = false;
    const sending = allSent(session as ServedSession).then(() => {
      sentAll = true;
    });
    expect(sentAll).toBe(false);
    flush();
    await sending;
    expect(sentAll).toBe(true);
  });

  it("answers a cut call with the shutdown error only, dropping its handler's late answer", async () => {
    const { tracked, sent, flush } = transport();
    const served = newSession(
      () => "s",
      () => undefined,
    );
    const t = tracked(served);
    const session = Object.assign(served, { server: { transport: t } }) as unknown as ServedSession;
    session.unanswered.set(7, undefined as never);
    void cutCall(session, 7);
    expect(session.unanswered.size).toBe(0);
    await t.send(answer(7)); // the handler's late answer: dropped
    flush();
    expect(sent).toEqual([
      {
        jsonrpc: "2.0",
        id: 7,
        error: { code: -32000, message: expect.stringContaining("did not finish within the drain deadline") },
      },
    ]);
    settleRequest(session, 7); // settling twice is harmless
    await allAnswered(session);
  });

  it("drains sessions: waits for their answers, cuts those still running at the deadline, then waits for the sends", async () => {
    const { tracked, sent, flush } = transport();
    const served = newSession(
      () => "s",
      () => undefined,
    );
    const t = tracked(served);
    const session = Object.assign(served, { server: { transport: t } }) as unknown as ServedSession;
    session.unanswered.set(1, undefined as never);
    session.unanswered.set(2, undefined as never);
    const draining = drainSessions([session], 20);
    void t.send(answer(1)); // answered in time; 2 never is, so it is cut at the deadline
    await vi.waitFor(() => expect(sent).toHaveLength(2));
    flush();
    await draining;
    expect(session.unanswered.size).toBe(0);
    expect(sent).toEqual([
      answer(1),
      { jsonrpc: "2.0", id: 2, error: { code: -32000, message: expect.stringContaining("drain deadline") } },
    ]);
  });
});
