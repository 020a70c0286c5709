import type { EventId, EventStore, StreamId } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { type Logger, StderrLogger } from "../logging/logger.js";
import {
  closeRedis,
  connectRedis,
  type RedisConnection,
  type RedisConnectionOptions,
  redisConnection,
} from "../redis/redis-connection.js";
import { asMessage } from "../sdk/sdk1-adapter.js";
import { compareEntryIds, parseEventId } from "./event-ids.js";

/** Default `maxBytesPerStream`: 4 MiB. */
export const DEFAULT_REDIS_EVENT_STREAM_BYTES = 4 * 1024 * 1024;
/** Default `ttlMs`: 10 minutes. */
export const DEFAULT_REDIS_EVENT_TTL_MS = 10 * 60 * 1000;

/** Options of `RedisEventStore`. */
export interface RedisEventStoreOptions extends RedisConnectionOptions {
  /** Key prefix (default `frugal:events:`). */
  prefix?: string | undefined;
  /**
   * Most bytes one stream keeps, counted as the JSON of its messages (default 4 MiB); its
   * oldest events are dropped first. A resume from an event whose successors were dropped
   * is refused rather than replayed with a gap.
   */
  maxBytesPerStream?: number | undefined;
  /** How long a stream is kept after its last event (default 10 minutes). */
  ttlMs?: number | undefined;
  /** How often a resumed stream that another instance is still writing is read again (default 100 ms). */
  pollIntervalMs?: number | undefined;
  /** Where a failed write is reported (default: stderr). */
  logger?: Logger | undefined;
}

/** Why following a stream stopped. */
export type FollowEnd = "ended" | "expired" | "aborted";

// Appends one message (field `m`) or a tombstone (field `d`: sent, never kept), then drops the
// oldest entries until the stream is back under its byte bound, remembering the newest id
// dropped (a resume from before it would have a gap). Every key of a stream shares one hash
// tag, so the script touches a single Redis Cluster slot.
const APPEND = `
local field = ARGV[1]
local value = ARGV[2]
local max = tonumber(ARGV[3])
local id = redis.call('XADD', KEYS[1], '*', field, value)
if field == 'd' then
  redis.call('HSET', KEYS[2], 'dropped', id)
end
local bytes = 0
if field == 'm' then bytes = string.len(value) end
bytes = redis.call('HINCRBY', KEYS[2], 'bytes', bytes)
while bytes > max do
  local oldest = redis.call('XRANGE', KEYS[1], '-', '+', 'COUNT', 1)[1]
  if not oldest then break end
  redis.call('XDEL', KEYS[1], oldest[1])
  local size = 0
  if oldest[2][1] == 'm' then size = string.len(oldest[2][2]) end
  bytes = redis.call('HINCRBY', KEYS[2], 'bytes', -size)
  redis.call('HSET', KEYS[2], 'dropped', oldest[1])
end
redis.call('PEXPIRE', KEYS[1], ARGV[4])
redis.call('PEXPIRE', KEYS[2], ARGV[4])
return id
`;

type Entry = [id: string, fields: string[]];

/**
 * A Streamable HTTP event store kept in Redis, so a client whose stream broke can resume it
 * with `Last-Event-ID` on any instance that shares the Redis: in stateless HTTP mode the
 * instance that receives the resume replays what the client missed from Redis, then keeps
 * reading the stream that another instance is still writing, until its answer arrives.
 *
 * Each stream is a Redis stream bounded in bytes (`maxBytesPerStream`, oldest events
 * dropped first) and in time (`ttlMs` after its last event). A resume from an event whose
 * successors were dropped or expired is refused, never replayed with a gap. The HTTP
 * handler scopes stream ids by session or principal, so one caller's event ids never
 * replay another's messages.
 *
 * @example
 * ```ts
 * const events = new RedisEventStore({ url: process.env.REDIS_URL, ttlMs: 5 * 60_000 });
 * await app.listen({ transport: "http", port: 3000, stateless: true, eventStore: events, authenticate });
 * ```
 */
export class RedisEventStore implements EventStore {
  readonly prefix: string;
  readonly maxBytesPerStream: number;
  readonly ttlMs: number;
  private readonly pollIntervalMs: number;
  private readonly connection: RedisConnection;
  private readonly logger: Logger;
  private connecting: Promise<void> | undefined;

  constructor(options: RedisEventStoreOptions = {}) {
    this.prefix = options.prefix ?? "frugal:events:";
    this.maxBytesPerStream = positive(
      "maxBytesPerStream",
      options.maxBytesPerStream ?? DEFAULT_REDIS_EVENT_STREAM_BYTES,
    );
    this.ttlMs = positive("ttlMs", options.ttlMs ?? DEFAULT_REDIS_EVENT_TTL_MS);
    this.pollIntervalMs = positive("pollIntervalMs", options.pollIntervalMs ?? 100);
    // Replays and appends are single commands; the default command timeout (250 ms) suits them.
    this.connection = redisConnection(options);
    this.logger = options.logger ?? new StderrLogger();
  }

  /**
   * Keeps `message` and returns its event id. When Redis fails, the message is still sent
   * (the live stream never loses it); only resuming after it is lost: its id names no
   * event, so a resume from it is refused rather than replayed with a gap.
   */
  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    try {
      return `${streamId}|${await this.append(streamId, message)}`;
    } catch (error) {
      this.logger.warn(
        `RedisEventStore: keeping an event of stream ${streamId} failed; it cannot be resumed from`,
        error,
      );
      return `${streamId}|unkept`;
    }
  }

  private async append(streamId: StreamId, message: JSONRPCMessage): Promise<string> {
    const json = JSON.stringify(message);
    // A message over the bound is sent but not kept: a tombstone gives it an id and marks the gap.
    const kept = Buffer.byteLength(json) <= this.maxBytesPerStream;
    return (await (
      await this.client()
    ).eval(
      APPEND,
      2,
      this.streamKey(streamId),
      this.metaKey(streamId),
      kept ? "m" : "d",
      kept ? json : "",
      this.maxBytesPerStream,
      this.ttlMs,
    )) as string;
  }

  /**
   * Marks `streamId` as answered: a follower stops there. The HTTP handler calls it once
   * every request of a stateless POST was answered.
   */
  async endStream(streamId: StreamId): Promise<void> {
    await this.append(streamId, END_MARK);
  }

  async getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    return (await this.canResumeAfter(eventId)) ? parseEventId(eventId)?.streamId : undefined;
  }

  /**
   * Whether a client that saw `eventId` can resume after it: its stream is still kept and
   * none of the events after it were dropped.
   */
  async canResumeAfter(eventId: EventId): Promise<boolean> {
    const parsed = parseEventId(eventId);
    if (!parsed) return false;
    const redis = await this.client();
    const [dropped, last] = await Promise.all([
      redis.hget(this.metaKey(parsed.streamId), "dropped"),
      redis.xrevrange(this.streamKey(parsed.streamId), "+", "-", "COUNT", 1),
    ]);
    const newest = last[0]?.[0];
    if (newest === undefined || compareEntryIds(parsed.entryId, newest) > 0) return false;
    return dropped === null || compareEntryIds(parsed.entryId, dropped) >= 0;
  }

  /**
   * Sends the events of `lastEventId`'s stream that came after it, in order, and resolves
   * with the stream's id; rejects when they cannot all be replayed (see `canResumeAfter`).
   */
  async replayEventsAfter(
    lastEventId: EventId,
    { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> },
  ): Promise<StreamId> {
    const parsed = parseEventId(lastEventId);
    if (!parsed || !(await this.canResumeAfter(lastEventId)))
      throw new Error(`cannot resume after event ${lastEventId}: the events after it are gone`);
    await this.readAfter(parsed.streamId, parsed.entryId, send);
    return parsed.streamId;
  }

  /**
   * Replays the events after `lastEventId`, then keeps reading the stream (another instance
   * may still be writing it) until it is marked answered (`endStream`), it expires, or
   * `signal` aborts. Resolves with why it stopped.
   */
  async follow(
    lastEventId: EventId,
    send: (eventId: EventId, message: JSONRPCMessage) => Promise<void>,
    signal: AbortSignal,
  ): Promise<FollowEnd> {
    const parsed = parseEventId(lastEventId);
    if (!parsed) return "expired";
    let after = parsed.entryId;
    while (!signal.aborted) {
      const read = await this.readAfter(parsed.streamId, after, send);
      if (read.ended) return "ended";
      if (read.last) after = read.last;
      else if ((await (await this.client()).exists(this.streamKey(parsed.streamId))) === 0) return "expired";
      if (read.last === undefined) await pause(this.pollIntervalMs, signal);
    }
    return "aborted";
  }

  /** Closes the connection if the store opened it. */
  async close(): Promise<void> {
    await closeRedis(this.connection);
    this.connecting = undefined;
  }

  /** Sends the entries after `after`; tells whether the end mark was among them and the last id read. */
  private async readAfter(
    streamId: StreamId,
    after: string,
    send: (eventId: EventId, message: JSONRPCMessage) => Promise<void>,
  ): Promise<{ ended: boolean; last: string | undefined }> {
    const entries = (await (
      await this.client()
    ).xrange(this.streamKey(streamId), `(${after}`, "+")) as Entry[];
    let last: string | undefined;
    for (const [id, fields] of entries) {
      last = id;
      if (fields[0] !== "m") continue;
      const json = fields[1] ?? "";
      if (json === END_JSON) return { ended: true, last };
      await send(`${streamId}|${id}`, asMessage(JSON.parse(json)));
    }
    return { ended: false, last };
  }

  private async client(): Promise<RedisConnection["client"]> {
    this.connecting ??= connectRedis(this.connection).catch((error: unknown) => {
      this.connecting = undefined;
      throw error;
    });
    await this.connecting;
    return this.connection.client;
  }

  private streamKey(streamId: StreamId): string {
    return `${this.prefix}{${streamId}}:events`;
  }

  private metaKey(streamId: StreamId): string {
    return `${this.prefix}{${streamId}}:meta`;
  }
}

/** What `endStream` stores: a notification no client would ever receive, never replayed. */
const END_MARK: JSONRPCMessage = { jsonrpc: "2.0", method: "frugal/stream-end" };
const END_JSON = JSON.stringify(END_MARK);

function positive(name: string, value: number): number {
  if (typeof value !== "number" || !(value > 0))
    throw new RangeError(`RedisEventStore: ${name} must be a positive number, got ${String(value)}`);
  return value;
}

/** Waits `ms`, or less if `signal` aborts; the timer never holds the process open. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    timer.unref();
    signal.addEventListener("abort", done, { once: true });
  });
}
