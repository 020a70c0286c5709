import {
  idleDeadline,
  type SessionChange,
  type SessionLimits,
  type SessionRecord,
  type SessionStore,
} from "./session-store.js";

interface Held {
  record: SessionRecord;
  expiresAt: number;
}

/**
 * The default `SESSION_STORE`: sessions live in the memory of the instance that opened
 * them (behind a load balancer, keep each client on one instance, or share sessions with
 * `RedisSessionStore`). Expired records are dropped when met and whenever a session opens,
 * so the store never holds more than `maxSessions` live records plus those not yet met.
 *
 * @example
 * ```ts
 * const store = new MemorySessionStore();
 * await store.count(); // 0
 * ```
 */
export class MemorySessionStore implements SessionStore {
  readonly shared = false;
  private readonly held = new Map<string, Held>();

  constructor(private readonly now: () => number = Date.now) {}

  async open(record: SessionRecord, limits: SessionLimits): Promise<boolean> {
    this.sweep();
    if (this.held.size >= limits.maxSessions) return false;
    const now = this.now();
    this.held.set(record.id, {
      record: { ...record, createdAt: now, lastActiveAt: now },
      expiresAt: idleDeadline(now, limits.idleTimeoutMs),
    });
    return true;
  }

  async get(id: string, limits: SessionLimits): Promise<SessionRecord | undefined> {
    return this.live(id, limits)?.record;
  }

  async touch(id: string, limits: SessionLimits): Promise<boolean> {
    return this.live(id, limits) !== undefined;
  }

  async update(id: string, change: SessionChange): Promise<void> {
    const held = this.held.get(id);
    if (!held || held.expiresAt <= this.now()) return;
    held.record = applyChange(held.record, change);
  }

  async delete(id: string): Promise<boolean> {
    const held = this.held.get(id);
    this.held.delete(id);
    return held !== undefined && held.expiresAt > this.now();
  }

  async count(): Promise<number> {
    this.sweep();
    return this.held.size;
  }

  /** The live entry of `id`, its expiry pushed back (an expired one is dropped). */
  private live(id: string, limits: SessionLimits): Held | undefined {
    const held = this.held.get(id);
    if (!held) return undefined;
    const now = this.now();
    if (held.expiresAt <= now) {
      this.held.delete(id);
      return undefined;
    }
    held.expiresAt = idleDeadline(now, limits.idleTimeoutMs);
    held.record = { ...held.record, lastActiveAt: now };
    return held;
  }

  private sweep(): void {
    const now = this.now();
    for (const [id, held] of this.held) if (held.expiresAt <= now) this.held.delete(id);
  }
}

/** `record` with `change` applied. */
function applyChange(record: SessionRecord, change: SessionChange): SessionRecord {
  let subscriptions = record.subscriptions;
  if (change.subscribe !== undefined && !subscriptions.includes(change.subscribe))
    subscriptions = [...subscriptions, change.subscribe];
  if (change.unsubscribe !== undefined) subscriptions = subscriptions.filter((u) => u !== change.unsubscribe);
  let streamHolder = record.streamHolder;
  if (change.holder !== undefined) streamHolder = change.holder;
  if (change.release !== undefined && streamHolder === change.release) streamHolder = undefined;
  return {
    ...record,
    subscriptions,
    streamHolder,
    ...(change.logLevel === undefined ? {} : { logLevel: change.logLevel }),
  };
}
