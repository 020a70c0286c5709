import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import type { ServerContext } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import { ManualClock } from "../../../../src/clock/clock.js";
import type { AppRuntime } from "../../../../src/protocol/app-runtime.js";
import {
  ANONYMOUS_REPLAY_TTL_MS,
  DEFAULT_REPLAY_TTL_MS,
  inputReplay,
} from "../../../../src/protocol/registrar-2026/input-replay.js";

const runtime = { principalOf: (auth: AuthInfo) => auth.clientId } as unknown as AppRuntime;
const alice: AuthInfo = { clientId: "alice", token: "t", scopes: [] };
const confirm = { method: "elicitation/create", params: { message: "Delete it?" } };
const pick = { method: "elicitation/create", params: { message: "Which one?" } };
const call = { method: "tools/call", params: { name: "delete_item", arguments: { id: 7 } } };

/** A 2026-07-28 request's context as the v2 SDK gives it: the state and answers the client sent. */
/** `auth` null: an anonymous request. */
const contextOf = (state?: string, responses?: Record<string, unknown>, auth: AuthInfo | null = alice) =>
  ({
    http: auth ? { authInfo: auth } : undefined,
    mcpReq: { requestState: () => state, inputResponses: responses },
  }) as unknown as ServerContext;

function setup() {
  const clock = new ManualClock(1_700_000_000_000);
  const replayOf = inputReplay(runtime, { cursorSecret: "input-replay-unit-secret-0123456789" }, clock);
  return { clock, replayOf };
}

describe("inputReplay", () => {
  it("asks, then replays every answer from the request state, one round per question", async () => {
    const { replayOf } = setup();
    const first = replayOf(call, contextOf());
    await expect(first.ask(confirm)).rejects.toThrow("waiting for the client's answer to elicitation/create");
    expect(first.pending).toBe(true);
    const round1 = first.inputRequired();
    expect(round1).toMatchObject({ resultType: "input_required", inputRequests: { "frugal.0": confirm } });
    const state1 = round1.requestState as string;

    const second = replayOf(call, contextOf(state1, { "frugal.0": { action: "accept" } }));
    expect(second.callId).toBe(first.callId);
    expect(await second.ask(confirm)).toEqual({ action: "accept" });
    await expect(second.ask(pick, "which")).rejects.toThrow(/waiting/);
    const round2 = second.inputRequired();
    expect(Object.keys(round2.inputRequests as object)).toEqual(["which"]);

    const third = replayOf(
      call,
      contextOf(round2.requestState as string, { which: { action: "accept", content: { n: 2 } } }),
    );
    expect(await third.ask(confirm)).toEqual({ action: "accept" });
    expect(await third.ask(pick, "which")).toEqual({ action: "accept", content: { n: 2 } });
    expect(third.pending).toBe(false);
    expect(third.stateId).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(third.principal).toBe("principal:alice");
  });

  it("refuses a state that was tampered with, made for other arguments or another principal", async () => {
    const { replayOf } = setup();
    const first = replayOf(call, contextOf());
    await first.ask(confirm).catch(() => {});
    const state = first.inputRequired().requestState as string;
    const tampered = `${state.slice(0, -1)}${state.endsWith("A") ? "B" : "A"}`;
    const other = { ...call, params: { ...call.params, arguments: { id: 8 } } };
    const bob: AuthInfo = { clientId: "bob", token: "t2", scopes: [] };
    for (const attempt of [
      () => replayOf(call, contextOf(tampered)),
      () => replayOf(other, contextOf(state)),
      () => replayOf(call, contextOf(state, undefined, bob)),
    ]) {
      expect(attempt).toThrow(
        expect.objectContaining({
          code: -32602,
          message: expect.stringMatching(/^Invalid requestState: .*call again without requestState/),
        }),
      );
    }
  });

  it("lets a state expire: sooner for an anonymous caller", async () => {
    const { clock, replayOf } = setup();
    const stateFor = async (auth: AuthInfo | null) => {
      const replay = replayOf(call, contextOf(undefined, undefined, auth));
      await replay.ask(confirm).catch(() => {});
      return replay.inputRequired().requestState as string;
    };
    const named = await stateFor(alice);
    const anonymous = await stateFor(null);
    clock.advance(ANONYMOUS_REPLAY_TTL_MS + 1);
    expect(() => replayOf(call, contextOf(anonymous, undefined, null))).toThrow(/Invalid requestState/);
    expect(() => replayOf(call, contextOf(named))).not.toThrow();
    clock.advance(DEFAULT_REPLAY_TTL_MS);
    expect(() => replayOf(call, contextOf(named))).toThrow(/Invalid requestState/);
  });

  it("refuses two questions under one key, and more than sixteen questions", async () => {
    const { replayOf } = setup();
    const twice = replayOf(call, contextOf());
    await twice.ask(confirm, "same").catch(() => {});
    await expect(twice.ask(pick, "same")).rejects.toThrow('Two questions of this call are named "same"');
    expect(() => twice.inputRequired()).toThrow(/named "same"/);

    const many = replayOf(call, contextOf());
    for (let i = 0; i < 17; i++) await many.ask({ method: "roots/list" }).catch(() => {});
    expect(() => many.inputRequired()).toThrow(
      expect.objectContaining({
        code: -32602,
        message: expect.stringContaining("asked more than 16 questions"),
      }),
    );
    expect(() => replayOf(call, contextOf()).inputRequired()).toThrow("no question is pending");
  });
});
