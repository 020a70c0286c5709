/**
 * What every `SessionStore` must do, run against each implementation by its own test file
 * (memory-session-store.test.ts, redis-session-store.test.ts).
 */
import { randomUUID } from "node:crypto";
import type { SessionRecord, SessionStore } from "frugal-mcp";
import { expect, it } from "vitest";

export function record(overrides: Partial<SessionRecord> = {}): SessionRecord {
  return {
    id: randomUUID(),
    protocolVersion: "2025-11-25",
    clientInfo: { name: "contract", version: "1.0.0" },
    clientCapabilities: { elicitation: { form: {} } },
    logLevel: undefined,
    principal: "principal:alice",
    subscriptions: [],
    streamHolder: undefined,
    createdAt: 0,
    lastActiveAt: 0,
    ...overrides,
  };
}

const limits = { maxSessions: 1000, idleTimeoutMs: 60_000 };

export function sessionStoreContract(
  make: () => Promise<SessionStore>,
  wait: (ms: number) => Promise<void>,
): void {
  it("keeps what initialize declared, and the changes requests make", async () => {
    const store = await make();
    const opened = record();
    expect(await store.open(opened, limits)).toBe(true);
    await store.update(opened.id, { logLevel: "warning" });
    await store.update(opened.id, { subscribe: "config://a" });
    await store.update(opened.id, { subscribe: "config://b" });
    await store.update(opened.id, { unsubscribe: "config://a" });
    await store.update(opened.id, { holder: "instance-a" });
    await store.update(opened.id, { holder: "instance-b" });
    // A stream that closed on A after B took over leaves B the holder.
    await store.update(opened.id, { release: "instance-a" });
    const read = await store.get(opened.id, limits);
    expect(read).toMatchObject({
      id: opened.id,
      protocolVersion: "2025-11-25",
      clientInfo: { name: "contract", version: "1.0.0" },
      clientCapabilities: { elicitation: { form: {} } },
      logLevel: "warning",
      principal: "principal:alice",
      subscriptions: ["config://b"],
      streamHolder: "instance-b",
    });
    await store.update(opened.id, { release: "instance-b" });
    expect((await store.get(opened.id, limits))?.streamHolder).toBeUndefined();
    expect(read?.createdAt).toBeGreaterThan(0);
    expect(read?.lastActiveAt).toBeGreaterThanOrEqual(read?.createdAt ?? 0);
  });

  it("answers nothing for an unknown id, and never revives a deleted session by updating it", async () => {
    const store = await make();
    expect(await store.get(randomUUID(), limits)).toBeUndefined();
    expect(await store.touch(randomUUID(), limits)).toBe(false);
    const opened = record();
    await store.open(opened, limits);
    expect(await store.delete(opened.id)).toBe(true);
    expect(await store.delete(opened.id)).toBe(false);
    await store.update(opened.id, { logLevel: "debug" });
    expect(await store.get(opened.id, limits)).toBeUndefined();
    expect(await store.touch(opened.id, limits)).toBe(false);
  });

  it("refuses a session past maxSessions, and makes room when one ends", async () => {
    const store = await make();
    const base = await store.count();
    const capped = { maxSessions: base + 2, idleTimeoutMs: 60_000 };
    const first = record();
    expect(await store.open(first, capped)).toBe(true);
    expect(await store.open(record(), capped)).toBe(true);
    expect(await store.open(record(), capped)).toBe(false);
    expect(await store.count()).toBe(base + 2);
    await store.delete(first.id);
    expect(await store.open(record(), capped)).toBe(true);
  });

  it("ends a session idle for longer than the idle timeout, and counts activity as keeping it", async () => {
    const store = await make();
    const short = { maxSessions: 1000, idleTimeoutMs: 150 };
    const idle = record();
    const busy = record();
    await store.open(idle, short);
    await store.open(busy, short);
    for (let i = 0; i < 4; i++) {
      await wait(60);
      expect(await store.touch(busy.id, short)).toBe(true);
    }
    expect(await store.get(idle.id, short)).toBeUndefined();
    expect(await store.get(busy.id, short)).toBeDefined();
  });
}
