import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { requirePackage } from "../common/require-package.js";

/** The pre-tokenizer patterns gpt-tokenizer publishes for its encodings. */
interface SplitConstants {
  readonly CL100K_TOKEN_SPLIT_REGEX: string | RegExp;
  readonly O200K_TOKEN_SPLIT_REGEX: string | RegExp;
}

/** Encodings whose vocabulary `CompactBpe` reads from gpt-tokenizer's data files. */
type CompactEncoding = "o200k_base" | "cl100k_base";

const NO_RANK = 0x7fffffff;
// Pre-tokens whose counts are kept (first in, first out; up to 64 characters each): a few
// hundred KB at most, where gpt-tokenizer kept 100,000 merges.
const RECENT_PIECES = 4096;
const RECENT_MAX_CHARS = 64;
const BASE64 = (() => {
  const values = new Int8Array(256).fill(-1);
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  for (let i = 0; i < alphabet.length; i++) values[alphabet.charCodeAt(i)] = i;
  return values;
})();

/**
 * Byte-pair encoding over gpt-tokenizer's vocabulary and pre-tokenizer, held in typed arrays.
 *
 * Why not gpt-tokenizer's own encoder: it keeps the 200,000 tokens of o200k as JavaScript
 * strings in an array and a Map, built by parsing a 2.4 MB module of string literals. That
 * took about 110–190 ms and 50–64 MB of resident memory (20 MB of it live heap): a server of
 * 75 MB grew to 124 MB (BENCHMARKS.md, "Cold start with budgets"). Here the same
 * vocabulary is the token bytes back to back (1.4 MB), their offsets and an open-addressing
 * hash table (2 MB), read from gpt-tokenizer's `.tiktoken` data file: 8–15 MB of
 * resident memory, and no per-token object for the garbage collector.
 *
 * What stays gpt-tokenizer's: the vocabulary (its data file) and the pre-tokenizer (its split
 * regular expression). What is here is tiktoken's merge loop (`byte_pair_merge`): the pair of
 * adjacent parts with the lowest rank merges first, the leftmost among equals. A test
 * compares every count with gpt-tokenizer's (test/unit/tokenizer/compact-bpe.test.ts).
 * Special-token text (`<|endoftext|>`) is plain text here, as frugal-mcp counts user data.
 *
 * @example
 * ```ts
 * const bpe = await CompactBpe.load("o200k_base");
 * let tokens = 0;
 * for (const [piece] of bpe.pieces("Hello world")) tokens += bpe.countPiece(piece);
 * ```
 */
export class CompactBpe {
  private readonly encoder = new TextEncoder();
  /** Counts of recent pre-tokens: JSON and code repeat a few (`":"`, `"id`) thousands of times. */
  private readonly recent = new Map<string, number>();
  private buffer = new Uint8Array(1024);
  private starts = new Int32Array(1025);
  private ranks = new Int32Array(1025);

  private constructor(
    /** The token bytes, back to back, in rank order. */
    private readonly vocabulary: Uint8Array,
    /** Where each rank's bytes start in `vocabulary`; one more entry marks the end. */
    private readonly offsets: Uint32Array,
    /** Open addressing by a hash of the bytes: rank + 1, or 0 for an empty slot. */
    private readonly table: Int32Array,
    private readonly split: RegExp,
  ) {}

  /** Reads an encoding's vocabulary from gpt-tokenizer's data file (asynchronously) and its pre-tokenizer. */
  static async load(encoding: CompactEncoding): Promise<CompactBpe> {
    const file = requirePackage.resolve(`gpt-tokenizer/data/${encoding}.tiktoken`);
    const [data, constants] = await Promise.all([
      readFile(file),
      import("gpt-tokenizer/encodingParams/constants"),
    ]);
    return CompactBpe.from(encoding, data, constants);
  }

  /**
   * `load`, blocking: for tests and scripts that count outside a server (`tokensOf`), where
   * a synchronous answer matters more than not blocking the event loop for the read.
   */
  static loadSync(encoding: CompactEncoding): CompactBpe {
    const data = readFileSync(requirePackage.resolve(`gpt-tokenizer/data/${encoding}.tiktoken`));
    const constants: SplitConstants = requirePackage("gpt-tokenizer/encodingParams/constants");
    return CompactBpe.from(encoding, data, constants);
  }

  private static from(encoding: CompactEncoding, data: Uint8Array, constants: SplitConstants): CompactBpe {
    const split =
      encoding === "cl100k_base" ? constants.CL100K_TOKEN_SPLIT_REGEX : constants.O200K_TOKEN_SPLIT_REGEX;
    const { vocabulary, offsets } = parseTiktoken(data);
    return new CompactBpe(vocabulary, offsets, hashTable(vocabulary, offsets), new RegExp(split));
  }

  /** The number of tokens in the vocabulary. */
  get size(): number {
    return this.offsets.length - 1;
  }

  /** The pre-tokens of `text` (BPE never merges across them), in order. */
  pieces(text: string): IterableIterator<RegExpMatchArray> {
    return text.matchAll(this.split);
  }

  /** Tokens in a whole text. */
  count(text: string): number {
    let tokens = 0;
    for (const [piece] of text.matchAll(this.split)) tokens += this.countPiece(piece);
    return tokens;
  }

  /** Tokens in one pre-token. */
  countPiece(piece: string): number {
    const known = this.recent.get(piece);
    if (known !== undefined) return known;
    const tokens = this.encodePiece(piece);
    if (piece.length <= RECENT_MAX_CHARS) {
      if (this.recent.size >= RECENT_PIECES) deleteOldest(this.recent);
      this.recent.set(piece, tokens);
    }
    return tokens;
  }

  private encodePiece(piece: string): number {
    if (piece.length * 3 > this.buffer.length) this.grow(piece.length * 3);
    const n = this.encoder.encodeInto(piece, this.buffer).written;
    if (n <= 1 || this.rankOf(0, n) !== NO_RANK) return n === 0 ? 0 : 1;
    const { starts, ranks } = this;
    // tiktoken's byte_pair_merge: parts[i] starts at starts[i]; ranks[i] is the rank of
    // parts i and i + 1 merged. The last two parts are sentinels.
    let parts = 0;
    for (let i = 0; i < n - 1; i++, parts++) {
      starts[parts] = i;
      ranks[parts] = this.rankOf(i, i + 2);
    }
    starts[parts] = n - 1;
    ranks[parts++] = NO_RANK;
    starts[parts] = n;
    ranks[parts++] = NO_RANK;
    for (;;) {
      let lowest = NO_RANK;
      let at = -1;
      for (let i = 0; i < parts - 1; i++) {
        if (ranks[i] < lowest) {
          lowest = ranks[i];
          at = i;
        }
      }
      if (at < 0) return parts - 1;
      if (at > 0) ranks[at - 1] = at + 2 < parts ? this.rankOf(starts[at - 1], starts[at + 2]) : NO_RANK;
      ranks[at] = at + 3 < parts ? this.rankOf(starts[at], starts[at + 3]) : NO_RANK;
      starts.copyWithin(at + 1, at + 2, parts);
      ranks.copyWithin(at + 1, at + 2, parts);
      parts--;
    }
  }

  /** The rank of the bytes `buffer[start..end)`, or `NO_RANK`. */
  private rankOf(start: number, end: number): number {
    const { buffer, vocabulary, offsets, table } = this;
    const length = end - start;
    const mask = table.length - 1;
    for (let slot = fnv1a(buffer, start, end) & mask; ; slot = (slot + 1) & mask) {
      const entry = table[slot];
      if (entry === 0) return NO_RANK;
      const offset = offsets[entry - 1];
      if (offsets[entry] - offset !== length) continue;
      let i = 0;
      while (i < length && vocabulary[offset + i] === buffer[start + i]) i++;
      if (i === length) return entry - 1;
    }
  }

  private grow(bytes: number): void {
    this.buffer = new Uint8Array(bytes + 16);
    this.starts = new Int32Array(bytes + 17);
    this.ranks = new Int32Array(bytes + 17);
  }
}

/** FNV-1a over `bytes[start..end)`. */
function fnv1a(bytes: Uint8Array, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ bytes[i], 0x01000193);
  return hash >>> 0;
}

/** A `.tiktoken` file (`<base64 token> <rank>` a line, ranks 0, 1, 2, … in order) as token bytes and offsets. */
function parseTiktoken(data: Uint8Array): { vocabulary: Uint8Array; offsets: Uint32Array } {
  let lines = 0;
  for (let i = 0; i < data.length; i++) if (data[i] === 10) lines++;
  if (data.length > 0 && data[data.length - 1] !== 10) lines++;
  const offsets = new Uint32Array(lines + 1);
  const bytes = new Uint8Array(Math.ceil((data.length * 3) / 4));
  let written = 0;
  let rank = 0;
  let i = 0;
  while (i < data.length) {
    offsets[rank++] = written;
    let bits = 0;
    let value = 0;
    for (; i < data.length && data[i] !== 32 && data[i] !== 10; i++) {
      const digit = BASE64[data[i] as number] as number;
      if (digit < 0) continue; // "=" padding
      value = ((value << 6) | digit) & 0xffffff;
      bits += 6;
      if (bits >= 8) {
        bits -= 8;
        bytes[written++] = (value >> bits) & 0xff;
      }
    }
    while (i < data.length && data[i] !== 10) i++; // the rank: the line number already says it
    i++;
  }
  offsets[rank] = written;
  return { vocabulary: bytes.slice(0, written), offsets: offsets.subarray(0, rank + 1) };
}

/** An open-addressing table of every rank by its bytes, at most half full. */
function hashTable(vocabulary: Uint8Array, offsets: Uint32Array): Int32Array {
  const count = offsets.length - 1;
  let size = 1;
  while (size < count * 2) size <<= 1;
  const table = new Int32Array(size);
  const mask = size - 1;
  for (let rank = 0; rank < count; rank++) {
    let slot = fnv1a(vocabulary, offsets[rank] as number, offsets[rank + 1] as number) & mask;
    while (table[slot] !== 0) slot = (slot + 1) & mask;
    table[slot] = rank + 1;
  }
  return table;
}

/** Forgets the entry put in first (a Map iterates in insertion order): the memo's eviction. */
export function deleteOldest(map: Map<string, number>): void {
  for (const oldest of map.keys()) {
    map.delete(oldest);
    return;
  }
}
