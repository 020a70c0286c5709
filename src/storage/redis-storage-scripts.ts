/**
 * The Lua scripts of `RedisStorage`. Each touches only the keys of one resource, which
 * share a hash tag, so on a Redis Cluster each runs on one slot.
 */

/**
 * The version check of a conditional write, run first by the write scripts: with an
 * expected version (ARGV[EXPECTED], "" for none), returns -1 unless the stored
 * metadata (KEYS[META]) has that version (0: none is stored).
 */
function versionCheck(meta: number, expected: number): string {
  return `
if ARGV[${expected}] ~= "" then
  local current = redis.call("GET", KEYS[${meta}])
  local version = 0
  if current then
    local ok, decoded = pcall(cjson.decode, current)
    version = -1
    if ok and type(decoded) == "table" and type(decoded["version"]) == "number" then version = decoded["version"] end
  end
  if version ~= tonumber(ARGV[${expected}]) then return -1 end
end
`;
}

/**
 * Writes a small version whole: both blobs and the metadata, at once, if the version
 * check passes. KEYS: content, index, meta. ARGV: content, index, meta JSON, TTL in ms,
 * expected version or "".
 */
export const PUT_SCRIPT = `${versionCheck(3, 5)}
redis.call("SET", KEYS[1], ARGV[1], "PX", ARGV[4])
redis.call("SET", KEYS[2], ARGV[2], "PX", ARGV[4])
redis.call("SET", KEYS[3], ARGV[3], "PX", ARGV[4])
return 1
`;
/**
 * Moves the temporary blobs of a chunked write into place and sets the metadata, all at
 * once, only if both blobs are still there (an expired temporary key must never leave
 * metadata pointing at nothing) and the version check passes. KEYS: temp content, temp
 * index, content, index, meta. ARGV: meta JSON, TTL in ms, expected version or "".
 */
export const COMMIT_SCRIPT = `${versionCheck(5, 3)}
if redis.call("EXISTS", KEYS[1]) == 0 or redis.call("EXISTS", KEYS[2]) == 0 then return 0 end
redis.call("RENAME", KEYS[1], KEYS[3])
redis.call("PEXPIRE", KEYS[3], ARGV[2])
redis.call("RENAME", KEYS[2], KEYS[4])
redis.call("PEXPIRE", KEYS[4], ARGV[2])
redis.call("SET", KEYS[5], ARGV[1], "PX", ARGV[2])
return 1
`;

/**
 * Undoes a write that failed, in case Redis runs it after all (a command that timed out
 * against a hung Redis runs once it is back): if the metadata is still the failed
 * write's, puts back what it replaced (or deletes it) and deletes the failed version's
 * blobs; otherwise deletes those blobs only if no metadata points at that version.
 * KEYS: meta, content, index (of the failed version). ARGV: the failed write's meta JSON,
 * the meta JSON it replaced ("" if none or expired), that one's TTL in ms, the failed
 * version, "1" if the replaced meta has the same version (its blobs are the same keys).
 */
export const UNDO_SCRIPT = `
local current = redis.call("GET", KEYS[1])
if current == ARGV[1] then
  if ARGV[2] == "" then redis.call("DEL", KEYS[1]) else redis.call("SET", KEYS[1], ARGV[2], "PX", ARGV[3]) end
  if ARGV[5] ~= "1" then redis.call("DEL", KEYS[2], KEYS[3]) end
  return 1
end
local version = nil
if current then
  local ok, meta = pcall(cjson.decode, current)
  if ok and type(meta) == "table" then version = meta["version"] end
end
if version ~= tonumber(ARGV[4]) then redis.call("DEL", KEYS[2], KEYS[3]) end
return 0
`;
