/**
 * What reading a 100 MB ephemeral resource costs (`npm run bench:ephemeral`).
 *
 * One text resource of 1,000,000 lines of 100 bytes each (100,000,000 bytes, plus an
 * 8 MB line index), encoded with `encodeContent` and stored with `storage.put` (not
 * `EphemeralResources.create`, whose default per-owner quota is 64 MiB) in a
 * `FileStorage` (a temporary directory) and in a `RedisStorage` (a random key prefix).
 *
 * (a) Slice 1 against the last slice: `readSlice` of 200 lines at offset 0 and at offset
 *     999,800, as `read_resource` does it (two range reads: index entries, then bytes).
 *     Warm-up, one GC, then interleaved rounds in rotating order (bench/lib/measure.ts);
 *     µs/slice is the median over rounds, the ratio the median of per-round ratios.
 *     Goal: last / first ≤ 1.2 on each storage (the cost of a slice must not depend on
 *     where it sits).
 * (b) Walking the whole resource, 5,000 slices of 200 lines, in order: the time, and the
 *     memory, as `heapUsed + arrayBuffers` (`--expose-gc`, GC before): the peak live
 *     growth (a GC, then a sample, every 50th slice, the slice held), the peak sampled
 *     after every slice without forcing a GC (uncollected garbage included), and what is
 *     left after a GC at the end. Goal: peak live growth < slice size + 8 MiB (no storage
 *     may load the blob, or any large part of it, to serve a slice).
 * Prints a markdown table, writes bench/results/ephemeral.json, and writes the section
 * "Ephemeral resources (bench:ephemeral)" of BENCHMARKS.md (other sections are left alone).
 * Deletes its Redis keys (SCAN … MATCH, never KEYS or FLUSH*) and its temporary directory.
 */
import "reflect-metadata";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  FileStorage,
  RedisStorage,
  type ResourceSlice,
  type ResourceStorage,
  type StoredResourceMeta,
} from "frugal-mcp";
// Internals measured directly (not part of the public API).
import { encodeContent } from "../src/ephemeral/content-index.js";
import { readSlice } from "../src/ephemeral/resource-slices.js";
import { type Contender, collectGarbage, median, medianRatio, runInterleaved } from "./lib/measure.js";
import { deletePrefix, REDIS_URL, redisVersion } from "./lib/redis.js";
import { describeMachine, machine, upsertSection, writeResults } from "./lib/report.js";

const PREFIX = `frugal-bench:ephemeral:${randomBytes(6).toString("hex")}:`;
const LINES = 1_000_000;
const LINE_BYTES = 100;
const SLICE = 200;
const ROUNDS = { warmup: 200, rounds: 51, opsPerRound: 100 };
const GOALS = { lastToFirst: 1.2, walkPeakOverSliceBytes: 8 * 1024 * 1024 };

const log = (line: string) => process.stderr.write(`${line}\n`);
const MiB = (bytes: number) => bytes / 1024 / 1024;
const memory = () => {
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
};

/** 1,000,000 lines of exactly 100 bytes (99 characters and a newline), as one string. */
function makeText(): string {
  const filler =
    " INFO GET /api/v1/articles?site=example&page=42 status=200 duration_ms=17 region=eu-west-1 trace=";
  const bytes = Buffer.alloc(LINES * LINE_BYTES);
  for (let i = 0; i < LINES; i++) {
    const at = i * LINE_BYTES;
    bytes.write(`${String(i).padStart(7, "0")}${filler}`.slice(0, LINE_BYTES - 1), at, "latin1");
    bytes[at + LINE_BYTES - 1] = 10;
  }
  return bytes.toString("latin1");
}

/** Reads every slice in order; checks the first line of each so a wrong read cannot pass as a fast one. */
async function walk(
  storage: ResourceStorage,
  meta: StoredResourceMeta,
  onSlice?: (slice: ResourceSlice, n: number) => void,
) {
  let lines = 0;
  let n = 0;
  for (let offset = 0; offset < meta.total; offset += SLICE) {
    const slice = await readSlice(storage, meta, offset, SLICE);
    if (!slice.lines?.[0]?.startsWith(String(offset).padStart(7, "0")))
      throw new Error(`slice at ${offset} starts with ${slice.lines?.[0]?.slice(0, 20)}`);
    lines += slice.count;
    onSlice?.(slice, n++);
  }
  if (lines !== meta.total) throw new Error(`walked ${lines} lines of ${meta.total}`);
}

interface Walked {
  ms: number;
  mbPerSecond: number;
  baselineMiB: number;
  /** Highest live growth: a GC, then a sample, every LIVE_SAMPLE_EVERY slices, the current slice held. */
  peakLiveGrowthMiB: number;
  /** Highest growth sampled after every slice with no forced GC: garbage not yet collected included. */
  peakGrowthWithGarbageMiB: number;
  /** heapUsed and arrayBuffers above the baseline at that sample. */
  peakWithGarbageParts: { heapUsedMiB: number; arrayBuffersMiB: number };
  /** Growth after the walk and a GC. */
  retainedMiB: number;
}

const LIVE_SAMPLE_EVERY = 50;
let held: ResourceSlice | undefined;

async function measureWalk(storage: ResourceStorage, meta: StoredResourceMeta): Promise<Walked> {
  const started = performance.now();
  await walk(storage, meta);
  const ms = performance.now() - started;

  collectGarbage();
  collectGarbage();
  const base = process.memoryUsage();
  const baseline = base.heapUsed + base.arrayBuffers;
  let live = baseline;
  await walk(storage, meta, (slice, n) => {
    if (n % LIVE_SAMPLE_EVERY !== 0) return;
    held = slice; // the sample counts the slice being held, as a caller would hold it
    collectGarbage();
    live = Math.max(live, memory());
    if (held.count !== SLICE) throw new Error(`a slice of ${held.count} lines`);
    held = undefined;
  });

  collectGarbage();
  collectGarbage();
  let peak = { total: baseline, heapUsed: base.heapUsed, arrayBuffers: base.arrayBuffers };
  await walk(storage, meta, () => {
    const usage = process.memoryUsage();
    const total = usage.heapUsed + usage.arrayBuffers;
    if (total > peak.total) peak = { total, heapUsed: usage.heapUsed, arrayBuffers: usage.arrayBuffers };
  });
  collectGarbage();
  collectGarbage();
  return {
    ms,
    mbPerSecond: meta.size / 1e6 / (ms / 1000),
    baselineMiB: MiB(baseline),
    peakLiveGrowthMiB: MiB(live - baseline),
    peakGrowthWithGarbageMiB: MiB(peak.total - baseline),
    peakWithGarbageParts: {
      heapUsedMiB: MiB(peak.heapUsed - base.heapUsed),
      arrayBuffersMiB: MiB(peak.arrayBuffers - base.arrayBuffers),
    },
    retainedMiB: MiB(memory() - baseline),
  };
}

// ---- the resource ------------------------------------------------------------------------
log(`building ${LINES} lines of ${LINE_BYTES} bytes`);
let encoded: ReturnType<typeof encodeContent> | undefined = encodeContent(makeText(), "text/plain");
const id = randomBytes(16).toString("base64url");
const now = Date.now();
const meta: StoredResourceMeta = {
  id,
  uri: `ephemeral://bench/${id}`,
  owner: null,
  creator: "bench",
  name: "100 MB of log lines",
  mimeType: encoded.mimeType,
  kind: encoded.kind,
  size: encoded.content.length,
  total: encoded.total,
  version: 1,
  createdAt: now,
  expiresAt: now + 3_600_000,
};
if (meta.total !== LINES || meta.size !== LINES * LINE_BYTES) throw new Error("unexpected encoding");
const sliceBytes = SLICE * LINE_BYTES;
const indexBytes = encoded.index.length;

const dir = mkdtempSync(join(tmpdir(), "frugal-bench-ephemeral-"));
const version = await redisVersion();
const stores: Array<{ name: string; storage: ResourceStorage; putMs: number }> = [];
try {
  const file = new FileStorage({ dir });
  let started = performance.now();
  await file.put(meta, encoded.content, encoded.index);
  stores.push({ name: "FileStorage", storage: file, putMs: performance.now() - started });
  log(`FileStorage: stored ${meta.size} bytes in ${(performance.now() - started).toFixed(0)} ms`);
  if (version === undefined) {
    log(`RedisStorage skipped: Redis at ${REDIS_URL} did not answer`);
  } else {
    const redis = new RedisStorage({ url: REDIS_URL, prefix: PREFIX });
    await redis.ready();
    started = performance.now();
    await redis.put(meta, encoded.content, encoded.index);
    stores.push({ name: "RedisStorage", storage: redis, putMs: performance.now() - started });
    log(`RedisStorage: stored ${meta.size} bytes in ${(performance.now() - started).toFixed(0)} ms`);
  }
  // From here on the process holds none of the 100 MB: every slice comes from storage.
  encoded = undefined;
  collectGarbage();

  // ---- (a) slice 1 vs the last slice --------------------------------------------------------
  const lastOffset = meta.total - SLICE;
  const contenders: Contender[] = stores.flatMap(({ name, storage }) => [
    { name: `${name} first`, once: () => readSlice(storage, meta, 0, SLICE) },
    { name: `${name} last`, once: () => readSlice(storage, meta, lastOffset, SLICE) },
  ]);
  for (const { name, storage } of stores) {
    const last = await readSlice(storage, meta, lastOffset, SLICE);
    if (
      last.count !== SLICE ||
      last.hasMore ||
      !last.lines?.[SLICE - 1]?.startsWith(String(LINES - 1).padStart(7, "0"))
    )
      throw new Error(`${name}: the last slice is wrong`);
  }
  log(`(a) ${ROUNDS.rounds} rounds × ${ROUNDS.opsPerRound} slices per contender`);
  const samples = await runInterleaved(contenders, {
    ...ROUNDS,
    onRound: (round, perOp) =>
      log(
        `(a) round ${round + 1}/${ROUNDS.rounds}: ${[...perOp].map(([n, us]) => `${n} ${us.toFixed(0)} µs`).join(", ")}`,
      ),
  });
  const slices = Object.fromEntries(
    stores.map(({ name }) => [
      name,
      {
        firstUs: median(samples.get(`${name} first`) ?? []),
        lastUs: median(samples.get(`${name} last`) ?? []),
        ratio: medianRatio(samples, `${name} last`, `${name} first`),
      },
    ]),
  );

  // ---- (b) walking the whole resource --------------------------------------------------------
  const walks: Record<string, Walked> = {};
  for (const { name, storage } of stores) {
    log(`(b) ${name}: walking ${meta.total / SLICE} slices`);
    walks[name] = await measureWalk(storage, meta);
  }

  // ---- report ----------------------------------------------------------------------------------
  const peakGoalMiB = MiB(sliceBytes + GOALS.walkPeakOverSliceBytes);
  const met = Object.fromEntries(
    stores.map(({ name }) => [
      name,
      {
        lastToFirst: (slices[name]?.ratio ?? Number.POSITIVE_INFINITY) <= GOALS.lastToFirst,
        walkMemory: (walks[name]?.peakLiveGrowthMiB ?? Number.POSITIVE_INFINITY) < peakGoalMiB,
      },
    ]),
  );
  const verdict = (ok: boolean | undefined) => (ok ? "met" : "**NOT met**");
  const mib = (n: number) => `${n.toFixed(2)} MiB`;
  const rows = [
    `| storage | write 100 MB | slice 1 | last slice | last / first | goal ≤ ${GOALS.lastToFirst} | walk ${(meta.total / SLICE).toLocaleString("en")} slices | peak live growth | goal < ${peakGoalMiB.toFixed(2)} MiB | peak with garbage | retained after GC |`,
    "| --- | ---: | ---: | ---: | ---: | --- | ---: | ---: | --- | ---: | ---: |",
    ...stores.map(({ name, putMs }) => {
      const s = slices[name];
      const w = walks[name];
      if (!s || !w) return `| ${name} | | | | | | | | | | |`;
      return `| \`${name}\` | ${putMs.toFixed(0)} ms | ${s.firstUs.toFixed(0)} µs | ${s.lastUs.toFixed(0)} µs | ${s.ratio.toFixed(3)} | ${verdict(met[name]?.lastToFirst)} | ${(w.ms / 1000).toFixed(2)} s (${w.mbPerSecond.toFixed(0)} MB/s) | ${mib(w.peakLiveGrowthMiB)} | ${verdict(met[name]?.walkMemory)} | ${mib(w.peakGrowthWithGarbageMiB)} | ${mib(w.retainedMiB)} |`;
    }),
    ...(version === undefined
      ? ["| `RedisStorage` | Redis unavailable | | | | skipped | | | skipped | | |"]
      : []),
  ];
  const table = rows.join("\n");
  console.log(table);

  const date = new Date().toISOString();
  const results = {
    benchmark: "ephemeral",
    date,
    machine: machine(),
    redis: version ?? null,
    resource: {
      lines: LINES,
      lineBytes: LINE_BYTES,
      size: meta.size,
      indexBytes,
      sliceLines: SLICE,
      sliceBytes,
    },
    method: { rounds: ROUNDS, walkSlices: meta.total / SLICE, memory: "heapUsed + arrayBuffers" },
    goals: { lastToFirst: GOALS.lastToFirst, walkPeakMiB: peakGoalMiB },
    met,
    writeMs: Object.fromEntries(stores.map(({ name, putMs }) => [name, putMs])),
    slices,
    walks,
    usPerSliceByRound: Object.fromEntries(samples),
  };
  writeResults("ephemeral", results);

  upsertSection(
    new URL("../../BENCHMARKS.md", import.meta.url),
    "Ephemeral resources (bench:ephemeral)",
    [
      "`npm run bench:ephemeral` (bench/ephemeral.bench.ts; raw figures in bench/results/ephemeral.json)",
      "",
      `Run ${date.slice(0, 16).replace("T", " ")} UTC on ${describeMachine()}, Redis ${version ?? "unavailable"} on loopback, FileStorage in ${tmpdir()}.`,
      "",
      `One text resource of ${LINES.toLocaleString("en")} lines of ${LINE_BYTES} bytes (${meta.size.toLocaleString("en")} bytes, and an index of ${indexBytes.toLocaleString("en")} bytes), slices of ${SLICE} lines (${sliceBytes.toLocaleString("en")} bytes) read with \`readSlice\`, as \`read_resource\` reads them.`,
      "",
      table,
      "",
      `Method: the content is built with \`encodeContent\` and stored with \`storage.put\` once, then released, so every slice comes from storage. Slice 1 (offset 0) and the last slice (offset ${lastOffset.toLocaleString("en")}) are timed in ${ROUNDS.rounds} interleaved rounds × ${ROUNDS.opsPerRound} sequential slices per contender in rotating order, after ${ROUNDS.warmup} warm-up slices each and one GC; µs/slice is the median over rounds, the ratio the median of per-round ratios. The walk reads all ${(meta.total / SLICE).toLocaleString("en")} slices in order once for time, then twice more for memory (\`heapUsed + arrayBuffers\`, node --expose-gc, two GCs before; baseline after them): "peak live growth" forces a GC and samples every ${LIVE_SAMPLE_EVERY}th slice while that slice is held, so it counts what a walk keeps alive; "peak with garbage" samples after every slice without forcing a GC, so it also counts garbage V8 has not collected yet (young generation, and Buffers of earlier slices that V8 frees only when external memory grows past its GC threshold); "retained" is measured after a GC at the end. The files are in the page cache (just written), as they are for a resource being read soon after it was made.`,
    ].join("\n"),
  );
  log(
    `results: bench/results/ephemeral.json, section "Ephemeral resources (bench:ephemeral)" of BENCHMARKS.md`,
  );
} finally {
  for (const { storage } of stores) {
    await storage.delete(meta.id).catch(() => false);
    await storage.close?.();
  }
  rmSync(dir, { recursive: true, force: true });
  if (version !== undefined) log(`deleted ${await deletePrefix(PREFIX)} leftover Redis keys under ${PREFIX}`);
}
