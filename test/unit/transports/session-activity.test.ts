import { EventEmitter } from "node:events";
import type { ServerResponse } from "node:http";
import type { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { newHttpSession } from "../../../src/transports/http-session.js";
import { sessionActivity } from "../../../src/transports/session-activity.js";

const silent = { debug() {}, info() {}, warn() {}, error() {} };

/** A session whose transport counts its closes; a response is an emitter that closes when told. */
function session() {
  const closes = { count: 0 };
  const transport = {
    sessionId: "s",
    close: async () => void closes.count++,
  } as unknown as StreamableHTTPServerTransport;
  return { session: newHttpSession("s", transport, undefined, undefined), closes };
}
const response = () => new EventEmitter() as unknown as ServerResponse;

describe("sessionActivity", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("closes a session idle for the timeout once its last response ended, not while one is open", async () => {
    const { track } = sessionActivity({
      idleTimeoutMs: 1000,
      keepAliveMs: 0,
      touch: undefined,
      logger: silent,
    });
    const { session: s, closes } = session();
    const first = response();
    const second = response();
    track(s, first);
    track(s, second);
    await vi.advanceTimersByTimeAsync(5000);
    expect(closes.count).toBe(0); // requests open: never idle
    first.emit("close");
    await vi.advanceTimersByTimeAsync(5000);
    expect(closes.count).toBe(0);
    second.emit("close");
    await vi.advanceTimersByTimeAsync(999);
    expect(closes.count).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(closes.count).toBe(1);
  });

  it("restarts the idle clock on a new request, and never closes with a timeout of 0", async () => {
    const { track } = sessionActivity({
      idleTimeoutMs: 1000,
      keepAliveMs: 0,
      touch: undefined,
      logger: silent,
    });
    const { session: s, closes } = session();
    const first = response();
    track(s, first);
    first.emit("close");
    await vi.advanceTimersByTimeAsync(600);
    const again = response();
    track(s, again);
    again.emit("close");
    await vi.advanceTimersByTimeAsync(600);
    expect(closes.count).toBe(0);
    await vi.advanceTimersByTimeAsync(400);
    expect(closes.count).toBe(1);

    const never = sessionActivity({ idleTimeoutMs: 0, keepAliveMs: 0, touch: undefined, logger: silent });
    const other = session();
    const res = response();
    never.track(other.session, res);
    res.emit("close");
    await vi.advanceTimersByTimeAsync(10 ** 9);
    expect(other.closes.count).toBe(0);
  });

  it("touches a shared record every keepAliveMs while a request is open, and stops when none is", async () => {
    const touched: string[] = [];
    const touch = async (id: string) => void touched.push(id);
    const { track } = sessionActivity({ idleTimeoutMs: 30_000, keepAliveMs: 10_000, touch, logger: silent });
    const { session: s } = session();
    const res = response();
    track(s, res);
    await vi.advanceTimersByTimeAsync(25_000);
    expect(touched).toEqual(["s", "s"]);
    res.emit("close");
    await vi.advanceTimersByTimeAsync(20_000);
    expect(touched).toEqual(["s", "s"]);
    expect(s.keepAlive).toBeUndefined();
  });
});
