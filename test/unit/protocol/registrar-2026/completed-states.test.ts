import { describe, expect, it } from "vitest";
import { ProtocolError } from "../../../../src/errors/protocol-errors.js";
import {
  CompletedStates,
  errorAnswer,
  repeatedAnswer,
} from "../../../../src/protocol/registrar-2026/completed-states.js";

describe("CompletedStates", () => {
  it("runs a request state once: the first claim settles it, a repeat by the same principal gets its answer", async () => {
    const states = new CompletedStates(undefined, 60_000);
    const first = await states.claim("st-1", "principal:alice");
    if (first.kind !== "first") throw new Error("the first claim must run");
    await first.settle({ result: { content: [] } });
    expect(await states.claim("st-1", "principal:alice")).toEqual({
      kind: "answered",
      answer: { result: { content: [] } },
    });
  });

  it("gives a repeat that arrives while the first runs the same answer, once it is settled", async () => {
    const states = new CompletedStates(undefined, 60_000);
    const first = await states.claim("st-2", "principal:alice");
    if (first.kind !== "first") throw new Error("the first claim must run");
    const repeat = states.claim("st-2", "principal:alice");
    // Let the repeat reach the running state (its claim of the record is a promise) before settling.
    await new Promise<void>((resolve) => setImmediate(resolve));
    await first.settle({ result: "done" });
    expect(await repeat).toEqual({ kind: "answered", answer: { result: "done" } });
  });

  it("refuses a state used by another principal, or by anyone anonymous, as already used", async () => {
    const states = new CompletedStates(undefined, 60_000);
    await states.claim("st-3", "principal:alice");
    for (const who of ["principal:mallory", null]) {
      await expect(states.claim("st-3", who)).rejects.toMatchObject({
        code: -32602,
        message: expect.stringContaining("this request state was already used"),
      });
    }
  });

  it("shares records through a cache's once-records: a repeat on another instance waits for the first answer", async () => {
    const shared = new Map<string, string>();
    const records = {
      claim: async (key: string, value: string) => {
        const earlier = shared.get(key);
        if (earlier === undefined) shared.set(key, value);
        return earlier;
      },
      put: async (key: string, value: string) => void shared.set(key, value),
    };
    const here = new CompletedStates(records, 60_000);
    const there = new CompletedStates(records, 60_000);
    const first = await here.claim("st-4", "principal:alice");
    if (first.kind !== "first") throw new Error("the first claim must run");
    const repeat = there.claim("st-4", "principal:alice");
    // The repeat finds the record running (no answer yet) before the first settles.
    await new Promise<void>((resolve) => setImmediate(resolve));
    await first.settle({ error: { code: -32603, message: "boom" } });
    const answered = { kind: "answered", answer: { error: { code: -32603, message: "boom" } } };
    expect(await repeat).toEqual(answered);
    expect(await there.claim("st-4", "principal:alice")).toEqual(answered);
  });

  it("refuses a repeat asking again later when the first submission elsewhere never answers within the wait", async () => {
    const shared = new Map<string, string>();
    const records = {
      claim: async (key: string, value: string) => {
        const earlier = shared.get(key);
        if (earlier === undefined) shared.set(key, value);
        return earlier;
      },
      put: async (key: string, value: string) => void shared.set(key, value),
    };
    await new CompletedStates(records, 60_000).claim("st-5", "principal:alice");
    await expect(new CompletedStates(records, 60_000, 50).claim("st-5", "principal:alice")).rejects.toThrow(
      /is being answered .* send it again in a moment/,
    );
  });
});

describe("answers", () => {
  it("repeat a result, or throw the error a state was answered with", () => {
    expect(repeatedAnswer({ result: { ok: 1 } })).toEqual({ ok: 1 });
    const thrown = (() => {
      try {
        repeatedAnswer({ error: { code: -32602, message: "bad", data: { x: 1 } } });
      } catch (error) {
        return error;
      }
    })();
    expect(thrown).toBeInstanceOf(ProtocolError);
    expect(thrown).toMatchObject({ code: -32602, data: { x: 1 } });
  });

  it("keep an error's code, message and data, and make anything else an internal error", () => {
    expect(errorAnswer(new ProtocolError(-32602, "bad params", { f: 1 }))).toEqual({
      error: { code: -32602, message: expect.stringContaining("bad params"), data: { f: 1 } },
    });
    expect(errorAnswer("thrown text")).toEqual({ error: { code: -32603, message: "Internal error" } });
    expect(errorAnswer(new Error("plain"))).toEqual({ error: { code: -32603, message: "plain" } });
  });
});
