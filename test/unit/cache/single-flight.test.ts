import { describe, expect, it } from "vitest";
import { Flight, SingleFlight } from "../../../src/cache/single-flight.js";

describe("Flight", () => {
  it("shares one result with every caller that joins", async () => {
    const flight = new Flight("ns", { q: 1 }, new AbortController().signal);
    const first = flight.promise;
    flight.join(new AbortController().signal);
    flight.resolve({ items: [1] });
    await expect(first).resolves.toEqual({ items: [1] });
    await expect(flight.promise).resolves.toEqual({ items: [1] });
  });

  it("shows a failure to callers that wait after it, with no unhandled rejection", async () => {
    const flight = new Flight("ns", null, new AbortController().signal);
    flight.reject(new Error("db down"));
    // Nobody awaited yet: the rejection must not surface as unhandled (vitest would fail the run).
    await Promise.resolve();
    await expect(flight.promise).rejects.toThrow("db down");
  });

  it("settles once: a later resolve or reject changes nothing", async () => {
    const flight = new Flight("ns", null, new AbortController().signal);
    flight.resolve(1);
    flight.reject(new Error("late"));
    flight.resolve(2);
    await expect(flight.promise).resolves.toBe(1);
  });

  it("keeps running while any caller still waits", () => {
    const a = new AbortController();
    const b = new AbortController();
    const flight = new Flight("ns", null, a.signal);
    flight.join(b.signal);
    a.abort(new Error("a gave up"));
    expect(flight.signal.aborted).toBe(false);
  });

  it("aborts once every caller has cancelled, with the first caller's reason", () => {
    const a = new AbortController();
    const b = new AbortController();
    const flight = new Flight("ns", null, a.signal);
    flight.join(b.signal);
    const reasonA = new Error("a gave up");
    b.abort(new Error("b gave up"));
    expect(flight.signal.aborted).toBe(false);
    a.abort(reasonA);
    expect(flight.signal.aborted).toBe(true);
    expect(flight.signal.reason).toBe(reasonA);
  });

  it("aborts at once when its only caller had already cancelled", () => {
    const a = new AbortController();
    a.abort(new Error("gone"));
    const flight = new Flight("ns", null, a.signal);
    expect(flight.signal.aborted).toBe(true);
  });

  it("ignores a joiner that had already cancelled while another caller waits", () => {
    const flight = new Flight("ns", null, new AbortController().signal);
    const late = new AbortController();
    late.abort();
    flight.join(late.signal);
    expect(flight.signal.aborted).toBe(false);
  });

  it("starts fresh (not stale) and remembers its namespace and input", () => {
    const input = { site: "a" };
    const flight = new Flight("articles", input, new AbortController().signal);
    expect(flight.stale).toBe(false);
    expect(flight.namespace).toBe("articles");
    expect(flight.input).toBe(input);
  });
});

describe("SingleFlight", () => {
  const live = () => new AbortController().signal;

  it("finds a running flight by key until it finishes", () => {
    const flights = new SingleFlight();
    expect(flights.get("k")).toBeUndefined();
    const flight = flights.start("k", "ns", null, live());
    expect(flights.get("k")).toBe(flight);
    expect(flights.get("other")).toBeUndefined();
    flights.finish("k", flight);
    expect(flights.get("k")).toBeUndefined();
  });

  it("lets an old flight's finish leave a newer flight of the same key in place", () => {
    const flights = new SingleFlight();
    const old = flights.start("k", "ns", null, live());
    const newer = flights.start("k", "ns", null, live());
    flights.finish("k", old);
    expect(flights.get("k")).toBe(newer);
  });

  it("marks every running flight of a namespace stale, and no other", () => {
    const flights = new SingleFlight();
    const a = flights.start("a", "articles", { site: "x" }, live());
    const b = flights.start("b", "articles", { site: "y" }, live());
    const c = flights.start("c", "logs", { site: "x" }, live());
    flights.markStale("articles");
    expect([a.stale, b.stale, c.stale]).toEqual([true, true, false]);
  });

  it("marks only the flights whose input the matcher accepts", () => {
    const flights = new SingleFlight();
    const a = flights.start("a", "articles", { site: "x" }, live());
    const b = flights.start("b", "articles", { site: "y" }, live());
    const seen: unknown[] = [];
    flights.markStale("articles", (input) => {
      seen.push(input);
      return (input as { site: string }).site === "x";
    });
    expect([a.stale, b.stale]).toEqual([true, false]);
    expect(seen).toEqual([{ site: "x" }, { site: "y" }]);
  });

  it("does not mark finished flights", () => {
    const flights = new SingleFlight();
    const done = flights.start("a", "articles", null, live());
    flights.finish("a", done);
    flights.markStale("articles");
    expect(done.stale).toBe(false);
  });
});
