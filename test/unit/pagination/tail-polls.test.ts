import { describe, expect, it } from "vitest";
import { TailPolls, tailOf } from "../../../src/pagination/tail-polls.js";

describe("TailPolls", () => {
  const tail = tailOf("session:a", "logs", '{"host":"web-1"}');
  const at = new Date("2026-01-01T10:05:00.000Z");

  it("resumes a walk from the nextSince it handed out, as a Date, epoch ms or ISO text", () => {
    const tails = new TailPolls();
    tails.handedOut(tail, at, { pagesBefore: 1, lastCount: 40 });
    expect(tails.resumed(tail, at)).toEqual({ pagesBefore: 1, lastCount: 40 });
    expect(tails.resumed(tail, at.getTime())).toEqual({ pagesBefore: 1, lastCount: 40 });
    tails.handedOut(tail, "2026-01-01T10:06:00.000Z", { pagesBefore: 2, lastCount: 3 });
    expect(tails.resumed(tail, new Date("2026-01-01T10:06:00.000Z"))).toEqual({
      pagesBefore: 2,
      lastCount: 3,
    });
  });

  it("does not resume from another time, another tail, or an earlier position of the same tail", () => {
    const tails = new TailPolls();
    tails.handedOut(tail, at, { pagesBefore: 1, lastCount: 40 });
    expect(tails.resumed(tail, at.getTime() + 1)).toBeUndefined();
    expect(tails.resumed(tailOf("session:b", "logs", '{"host":"web-1"}'), at)).toBeUndefined();
    expect(tails.resumed(tailOf("session:a", "logs", '{"host":"web-2"}'), at)).toBeUndefined();
    expect(tails.resumed(tailOf("session:a", "logs2", '{"host":"web-1"}'), at)).toBeUndefined();
    tails.handedOut(tail, at.getTime() + 60_000, { pagesBefore: 1, lastCount: 5 });
    expect(tails.resumed(tail, at)).toBeUndefined();
  });

  it("keeps no more than two pages before, so a long tail's cursors stay short", () => {
    const tails = new TailPolls();
    tails.handedOut(tail, at, { pagesBefore: 1_000_000, lastCount: 7 });
    expect(tails.resumed(tail, at)).toEqual({ pagesBefore: 2, lastCount: 7 });
  });

  it("ignores a nextSince that is no instant, and forgets the least recently answered tail past its capacity", () => {
    const tails = new TailPolls(2);
    tails.handedOut(tail, null, { pagesBefore: 1, lastCount: 1 });
    tails.handedOut(tail, "not a time", { pagesBefore: 1, lastCount: 1 });
    expect(tails.resumed(tail, at)).toBeUndefined();
    const [a, b, c] = ["a", "b", "c"].map((owner) => tailOf(owner, "logs", "{}"));
    for (const key of [a, b, c]) tails.handedOut(key as string, at, { pagesBefore: 1, lastCount: 1 });
    expect(tails.resumed(a as string, at)).toBeUndefined();
    expect(tails.resumed(c as string, at)).toEqual({ pagesBefore: 1, lastCount: 1 });
  });

  it("keeps owners and operations apart however their text is split", () => {
    expect(tailOf("ab", "c", "{}")).not.toBe(tailOf("a", "bc", "{}"));
    expect(tailOf("a", "b", "c{}")).not.toBe(tailOf("a", "bc", "{}"));
  });
});
