import type { LoggingLevel } from "@modelcontextprotocol/sdk/types.js";
import type { OnceRecords } from "../common/once-records.js";
import {
  closeRedis,
  connectRedis,
  type RedisConnection,
  type RedisConnectionOptions,
  redisConnection,
} from "../redis/redis-connection.js";
import { redisOnceRecords } from "../redis/redis-once-records.js";
import { RedisChannels } from "./redis-channels.js";
import type { SessionChange, SessionLimits, SessionRecord, SessionStore } from "./session-store.js";

/** Options of `RedisSessionStore`. */
export interface RedisSessionStoreOptions extends RedisConnectionOptions {
  /** Prefix of every key this store writes (default `frugal:sessions:`). */
  prefix?: string;
}

/** Redis time in ms, in a script (Redis 5+ replicates a script's effects, so reading TIME is allowed). */
const NOW =
  "local t = redis.call('TIME') local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)";

/**
 * KEYS: live set, record. ARGV: maxSessions, idle ms (0: never), id, field, value, …
 * Drops expired members, then claims a place: the count and the claim in one step.
 */
const OPEN = `${NOW}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
local ttl = tonumber(ARGV[2])
redis.call('DEL', KEYS[2])
redis.call('HSET', KEYS[2], 'c', now, 'a', now, unpack(ARGV, 4))
if ttl > 0 then
  redis.call('PEXPIRE', KEYS[2], ttl)
  redis.call('ZADD', KEYS[1], now + ttl, ARGV[3])
else
  redis.call('ZADD', KEYS[1], '+inf', ARGV[3])
end
return 1`;

/** KEYS: live set, record. ARGV: idle ms (0: never), id, "get" to return the record. */
const TOUCH = `${NOW}
if redis.call('EXISTS', KEYS[2]) == 0 then
  redis.call('ZREM', KEYS[1], ARGV[2])
  return false
end
local ttl = tonumber(ARGV[1])
redis.call('HSET', KEYS[2], 'a', now)
if ttl > 0 then
  redis.call('PEXPIRE', KEYS[2], ttl)
  redis.call('ZADD', KEYS[1], now + ttl, ARGV[2])
end
if ARGV[3] == 'get' then return redis.call('HGETALL', KEYS[2]) end
return 1`;

/**
 * KEYS: record. ARGV: log level, URI to subscribe, URI to unsubscribe, stream holder, holder
 * to release ("" for none). Never revives an ended record.
 */
const UPDATE = `if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if ARGV[1] ~= '' then redis.call('HSET', KEYS[1], 'll', ARGV[1]) end
if ARGV[2] ~= '' then redis.call('HSET', KEYS[1], 's:' .. ARGV[2], '1') end
if ARGV[3] ~= '' then redis.call('HDEL', KEYS[1], 's:' .. ARGV[3]) end
if ARGV[4] ~= '' then redis.call('HSET', KEYS[1], 'h', ARGV[4]) end
if ARGV[5] ~= '' and redis.call('HGET', KEYS[1], 'h') == ARGV[5] then redis.call('HDEL', KEYS[1], 'h') end
return 1`;

/** KEYS: live set. */
const COUNT = `${NOW}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
return redis.call('ZCARD', KEYS[1])`;

/**
 * A `SESSION_STORE` shared by every app instance that points at the same Redis: any
 * instance serves any request of any 2025-11-25 session, with no sticky routing. Each
 * session is one hash (`<prefix>{s}:r:<id>`: protocol version, client info and
 * capabilities, log level, principal, subscriptions, creation and last activity) that
 * expires after `sessionIdleTimeoutMs` without a request; a sorted set of live sessions
 * by expiry bounds them to `maxSessions` for all instances together, counted and claimed
 * in one script. Every key carries the hash tag `{s}`, so the scripts run on Redis
 * Cluster too (all sessions on one slot). Needs Redis 5 or later (scripts read `TIME`).
 *
 * Commands fail fast when Redis is down: the HTTP handler then answers 503 with a clear
 * message, and never serves a request on a session it could not check.
 *
 * @example
 * ```ts
 * providers: [{ provide: SESSION_STORE, useValue: new RedisSessionStore({ url: process.env.REDIS_URL, prefix: "articles:sessions:" }) }]
 * ```
 */
export class RedisSessionStore implements SessionStore {
  readonly shared = true;
  private readonly connection: RedisConnection;
  private readonly prefix: string;
  private readonly channels: RedisChannels;

  /** Once-records (the single completion of 2026-07-28 request states) in this Redis, seen by every instance. */
  readonly records: OnceRecords;

  constructor(options: RedisSessionStoreOptions = {}) {
    this.connection = redisConnection(options);
    this.prefix = options.prefix ?? "frugal:sessions:";
    this.channels = new RedisChannels(options, this.connection);
    this.records = redisOnceRecords(this.connection, (key) => `${this.prefix}once:${key}`);
  }

  /** Connects; `McpFactory.create` waits for this (briefly). */
  ready(): Promise<void> {
    return connectRedis(this.connection);
  }

  async open(record: SessionRecord, limits: SessionLimits): Promise<boolean> {
    const fields = encode(record);
    const opened = await this.connection.client.eval(
      OPEN,
      2,
      this.liveKey(),
      this.recordKey(record.id),
      limits.maxSessions,
      ttlArg(limits),
      record.id,
      ...fields,
    );
    return opened === 1;
  }

  async get(id: string, limits: SessionLimits): Promise<SessionRecord | undefined> {
    const raw = (await this.connection.client.eval(
      TOUCH,
      2,
      this.liveKey(),
      this.recordKey(id),
      ttlArg(limits),
      id,
      "get",
    )) as string[] | null;
    return raw ? decode(id, raw) : undefined;
  }

  async touch(id: string, limits: SessionLimits): Promise<boolean> {
    const touched = await this.connection.client.eval(
      TOUCH,
      2,
      this.liveKey(),
      this.recordKey(id),
      ttlArg(limits),
      id,
      "",
    );
    return touched === 1;
  }

  async update(id: string, change: SessionChange): Promise<void> {
    await this.connection.client.eval(
      UPDATE,
      1,
      this.recordKey(id),
      change.logLevel ?? "",
      change.subscribe ?? "",
      change.unsubscribe ?? "",
      change.holder ?? "",
      change.release ?? "",
    );
  }

  async delete(id: string): Promise<boolean> {
    const results = await this.connection.client
      .multi()
      .del(this.recordKey(id))
      .zrem(this.liveKey(), id)
      .exec();
    if (!results) throw new Error("RedisSessionStore: deleting a session was aborted");
    const failed = results.find(([error]) => error);
    if (failed?.[0]) throw failed[0];
    return results[0]?.[1] === 1;
  }

  async count(): Promise<number> {
    return (await this.connection.client.eval(COUNT, 1, this.liveKey())) as number;
  }

  /** Publishes on `<prefix>channel` (one instance listens there: see `listen`). */
  publish(channel: string, message: string): Promise<number> {
    return this.channels.publish(`${this.prefix}${channel}`, message);
  }

  /** Listens on `<prefix>channel`, over a connection of its own opened on first use. */
  listen(channel: string, onMessage: (message: string) => void): Promise<() => Promise<void>> {
    return this.channels.listen(`${this.prefix}${channel}`, onMessage);
  }

  async close(): Promise<void> {
    await this.channels.close();
    await closeRedis(this.connection);
  }

  private liveKey(): string {
    return `${this.prefix}{s}:live`;
  }

  private recordKey(id: string): string {
    return `${this.prefix}{s}:r:${id}`;
  }
}

function ttlArg(limits: SessionLimits): number {
  const ms = limits.idleTimeoutMs;
  return ms > 0 && Number.isFinite(ms) ? Math.ceil(ms) : 0;
}

/** The hash fields of a new record (creation and activity times are Redis's own clock). */
function encode(record: SessionRecord): string[] {
  const fields = ["v", record.protocolVersion, "cc", JSON.stringify(record.clientCapabilities)];
  if (record.clientInfo) fields.push("ci", JSON.stringify(record.clientInfo));
  if (record.logLevel) fields.push("ll", record.logLevel);
  if (record.principal !== undefined) fields.push("p", record.principal);
  for (const uri of record.subscriptions) fields.push(`s:${uri}`, "1");
  if (record.streamHolder !== undefined) fields.push("h", record.streamHolder);
  return fields;
}

function decode(id: string, flat: readonly string[]): SessionRecord {
  const fields = new Map<string, string>();
  const subscriptions: string[] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) {
    const name = flat[i] as string;
    if (name.startsWith("s:")) subscriptions.push(name.slice(2));
    else fields.set(name, flat[i + 1] as string);
  }
  const clientInfo = fields.get("ci");
  return {
    id,
    protocolVersion: fields.get("v") ?? "",
    clientInfo: clientInfo ? JSON.parse(clientInfo) : undefined,
    clientCapabilities: JSON.parse(fields.get("cc") ?? "{}"),
    logLevel: fields.get("ll") as LoggingLevel | undefined,
    principal: fields.get("p"),
    subscriptions,
    streamHolder: fields.get("h"),
    createdAt: Number(fields.get("c")),
    lastActiveAt: Number(fields.get("a")),
  };
}
