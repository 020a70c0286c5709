import type { ServerContext } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import { INPUT_KEY_OPTION } from "../../../../src/protocol/calls/client-questions.js";
import { envelopeOf } from "../../../../src/protocol/calls/request-envelope.js";
import { extraOf } from "../../../../src/protocol/registrar-2026/v2-request.js";

/** A request's context as the v2 SDK hands it over, recording what the request sends. */
function contextOf(envelope?: Record<string, unknown>) {
  const notified: unknown[] = [];
  const sent: unknown[] = [];
  const ctx = {
    sessionId: "s-1",
    http: { authInfo: { clientId: "alice", token: "t", scopes: [] } },
    mcpReq: {
      id: 9,
      signal: new AbortController().signal,
      _meta: { progressToken: "p" },
      envelope,
      notify: async (n: unknown) => void notified.push(n),
      send: async (r: unknown) => {
        sent.push(r);
        return { action: "accept" };
      },
    },
  } as unknown as ServerContext;
  return { ctx, notified, sent };
}
const log = { method: "notifications/message", params: { level: "info", data: "x" } };
const progress = { method: "notifications/progress", params: { progressToken: "p", progress: 1 } };

describe("extraOf", () => {
  it("gives a 2025 request the SDK 1.x extra: its ids, auth, meta, and requests sent to the client", async () => {
    const { ctx, notified, sent } = contextOf();
    const asked: unknown[] = [];
    const extra = extraOf(ctx, "legacy", async (r) => void asked.push(r));
    expect(extra).toMatchObject({
      sessionId: "s-1",
      requestId: 9,
      authInfo: { clientId: "alice" },
      _meta: { progressToken: "p" },
    });
    expect(envelopeOf(extra)).toBeUndefined();
    await extra.sendNotification(log as never);
    expect(
      await extra.sendRequest({ method: "elicitation/create", params: {} } as never, {} as never),
    ).toEqual({ action: "accept" });
    expect([notified, sent.length, asked]).toEqual([[log], 1, []]);
  });

  it("gives a 2026-07-28 request its envelope, and asks its questions through the replay with their key", async () => {
    const { ctx, sent } = contextOf({
      "io.modelcontextprotocol/logLevel": "warning",
      "io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
    });
    const asked: Array<[unknown, string | undefined]> = [];
    const extra = extraOf(ctx, "modern", async (r, key) => {
      asked.push([r, key]);
      return { action: "decline" };
    });
    expect(envelopeOf(extra)).toEqual({
      logLevel: "warning",
      capabilities: { elicitation: {} },
      outcome: undefined,
    });
    const question = { method: "elicitation/create", params: { message: "sure?" } };
    const answer = await extra.sendRequest(
      question as never,
      {} as never,
      { [INPUT_KEY_OPTION]: "confirm" } as never,
    );
    expect(answer).toEqual({ action: "decline" });
    expect(asked).toEqual([[question, "confirm"]]);
    expect(sent).toEqual([]);
  });

  it("drops log messages of a 2026-07-28 request that named no log level, and keeps the others", async () => {
    const { ctx, notified } = contextOf({});
    const extra = extraOf(ctx, "modern", async () => undefined);
    await extra.sendNotification(log as never);
    await extra.sendNotification(progress as never);
    expect(notified).toEqual([progress]);
    expect(envelopeOf(extra)?.logLevel).toBeUndefined();
  });
});
