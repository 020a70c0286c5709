import { fieldOf } from "../common/guards.js";
import type { RedisConnection } from "../redis/redis-connection.js";
import {
  type SharedUsage,
  StorageError,
  type StoredResourceMeta,
  type UsageClaim,
  type UsageLimits,
  type UsageRecord,
} from "./storage.js";

/** Drops the record of one id (KEYS: records, expiries, per-creator bytes, total bytes). */
const DROP = `
local function drop(id)
  local raw = redis.call("HGET", KEYS[1], id)
  if not raw then return end
  local r = cjson.decode(raw)
  local left = redis.call("HINCRBY", KEYS[3], r["creator"], -r["size"])
  if left <= 0 then redis.call("HDEL", KEYS[3], r["creator"]) end
  redis.call("DECRBY", KEYS[4], r["size"])
  redis.call("HDEL", KEYS[1], id)
  redis.call("ZREM", KEYS[2], id)
end
local function add(id, raw)
  local r = cjson.decode(raw)
  redis.call("HSET", KEYS[1], id, raw)
  redis.call("ZADD", KEYS[2], r["expiresAt"], id)
  redis.call("HINCRBY", KEYS[3], r["creator"], r["size"])
  redis.call("INCRBY", KEYS[4], r["size"])
end
`;

/**
 * Drops expired records (a bounded number per call, so a claim never does unbounded
 * work), then records a version if both quotas still hold. A replacement counts only
 * what it adds. ARGV: id, record JSON, creator, size, now, per-creator limit, total limit.
 * Returns {"ok", replaced record or ""} or {quota, bytes in use}.
 */
const CLAIM = `${DROP}
for _, id in ipairs(redis.call("ZRANGEBYSCORE", KEYS[2], "-inf", ARGV[5], "LIMIT", 0, 100)) do drop(id) end
local previous = redis.call("HGET", KEYS[1], ARGV[1])
local prevSize, prevCreator = 0, false
if previous then
  local p = cjson.decode(previous)
  prevSize = p["size"]
  prevCreator = p["creator"]
end
local size = tonumber(ARGV[4])
local mine = tonumber(redis.call("HGET", KEYS[3], ARGV[3]) or "0")
local all = tonumber(redis.call("GET", KEYS[4]) or "0")
local mineAfter = mine + size
if prevCreator == ARGV[3] then mineAfter = mineAfter - prevSize end
local allAfter = all + size - prevSize
if mineAfter > mine and mineAfter > tonumber(ARGV[6]) then return {"owner", tostring(mine)} end
if allAfter > all and allAfter > tonumber(ARGV[7]) then return {"total", tostring(all)} end
drop(ARGV[1])
add(ARGV[1], ARGV[2])
return {"ok", previous or ""}
`;

/** Takes back a claim whose write failed, if its record is still there. ARGV: id, token, replaced record or "", now. */
const REVERT = `${DROP}
local raw = redis.call("HGET", KEYS[1], ARGV[1])
if not raw or cjson.decode(raw)["token"] ~= ARGV[2] then return 0 end
drop(ARGV[1])
if ARGV[3] ~= "" and cjson.decode(ARGV[3])["expiresAt"] > tonumber(ARGV[4]) then add(ARGV[1], ARGV[3]) end
return 1
`;

/** Forgets a deleted resource. ARGV: id. */
const FORGET = `${DROP}
drop(ARGV[1])
return 1
`;

/** Tries of a revert while Redis does not answer (one a second). */
const REVERT_ATTEMPTS = 60;

interface StoredRecord extends Omit<UsageRecord, "id"> {
  readonly token: string;
}

/**
 * The byte usage of a `RedisStorage`, shared by every instance on it: one record per
 * resource and the per-creator and total sums, changed only by Lua scripts, so a check
 * and the change it allows are one step for all instances together. Its four keys share
 * one hash tag: on a Redis Cluster every script runs on one slot.
 *
 * A process that dies between a claim and its write leaves the claim counted until the
 * resource's expiry (counting too much, never too little).
 */
export class RedisUsage implements SharedUsage {
  constructor(
    private readonly connection: RedisConnection,
    /** The ledger's keys, in KEYS order: records, expiries, per-creator bytes, total bytes. */
    private readonly keys: readonly [string, string, string, string],
    /** The app's now: records expire on its clock. */
    private readonly now: () => number = Date.now,
  ) {}

  async claim(meta: StoredResourceMeta, limits: UsageLimits, now: number): Promise<UsageClaim> {
    const token = `${now}:${Math.random().toString(36).slice(2)}`;
    const record: StoredRecord = {
      creator: meta.creator,
      owner: meta.owner,
      size: meta.size,
      createdAt: meta.createdAt,
      expiresAt: meta.expiresAt,
      token,
    };
    let reply: [string, string];
    try {
      reply = (await this.run(
        "counting the bytes of stored results",
        CLAIM,
        meta.id,
        JSON.stringify(record),
        meta.creator,
        meta.size,
        now,
        limits.perCreator,
        limits.total,
      )) as [string, string];
    } catch (error) {
      // A claim that timed out against a hung Redis runs once it is back: its revert is
      // sent right behind it on the same connection (a no-op if the claim never ran).
      // What it replaced is unknown here, so a replaced resource counts nothing until its
      // next write (counting one resource too little beats locking its owner out).
      this.revertLater(meta.id, token, "");
      throw error;
    }
    const [verdict, detail] = reply;
    if (verdict === "owner" || verdict === "total")
      return { granted: false, quota: verdict, used: Number(detail) };
    return { granted: true, revert: async () => this.revertLater(meta.id, token, detail) };
  }

  /** Takes a claim back, now and again every second until Redis answers (for a minute at most). */
  private revertLater(id: string, token: string, previous: string, attempt = 0): void {
    this.run("taking back a failed write's bytes", REVERT, id, token, previous, this.now()).catch(() => {
      if (attempt >= REVERT_ATTEMPTS || this.connection.client.status === "end") return;
      setTimeout(() => this.revertLater(id, token, previous, attempt + 1), 1_000).unref();
    });
  }

  async records(now: number): Promise<UsageRecord[]> {
    let all: Record<string, string>;
    try {
      all = await this.connection.client.hgetall(this.keys[0]);
    } catch (error) {
      throw new StorageError(
        `redis storage: reading the usage ledger failed (${String(fieldOf(error, "message"))})`,
      );
    }
    const records: UsageRecord[] = [];
    for (const [id, raw] of Object.entries(all)) {
      const { token: _token, ...record } = JSON.parse(raw) as StoredRecord;
      if (record.expiresAt > now) records.push({ id, ...record });
    }
    return records;
  }

  /** Drops the record of a deleted resource. */
  async forget(id: string): Promise<void> {
    await this.run("forgetting a deleted resource's bytes", FORGET, id);
  }

  private async run(what: string, script: string, ...args: Array<string | number>): Promise<unknown> {
    try {
      return await this.connection.client.eval(script, 4, ...this.keys, ...args);
    } catch (error) {
      throw new StorageError(
        `redis storage: ${what} failed (${String(fieldOf(error, "message")).split("\n")[0]})`,
      );
    }
  }
}
