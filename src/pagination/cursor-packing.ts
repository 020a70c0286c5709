import { itemAt } from "../common/guards.js";
import type { KeyValue } from "./cursor-values.js";

/**
 * The packed form of a cursor's values: the key values in key order, then the extra state
 * as (name, value) pairs. Each value is one tag byte (type in the high 3 bits, a small
 * number in the low 5) and what its type needs, so a value takes what it holds and about
 * one byte more:
 *
 * | type | low 5 bits | then |
 * |---|---|---|
 * | 0 atom | 0 null, 1 false, 2 true | |
 * | | 3 a number that is not a safe integer | float64, big-endian |
 * | | 4 a string that is not well-formed UTF-16 | its length (LEB128), 2 bytes a code unit |
 * | | 5 a Date, 6 a Date before 1970 | epoch ms (its absolute value), LEB128 |
 * | 1 integer ≥ 0 | n < 31, or 31 | (31: n − 31, LEB128) |
 * | 2 integer < 0 | as 1, for −n − 1 | |
 * | 3 string of 32 UTF-8 bytes or more | length − 32, as 1 | UTF-8 bytes |
 * | 4 string of up to 31 UTF-8 bytes | length | UTF-8 bytes |
 * | 5 string of `A–Z a–z 0–9 - _` | length, as 1 | 6 bits a character |
 * | 6 bigint of up to 31 bytes | byte length | two's complement, big-endian, fewest bytes |
 * | 7 bigint of 32 bytes or more | length − 32, as 1 | the same |
 *
 * A state name is its UTF-8 length (LEB128) and bytes. Nothing marks the end of the key
 * values: the reader knows how many fields the key has.
 *
 * @example
 * ```ts
 * pack([42, "intro"], [["p", 2]]); // 10 bytes
 * unpack(pack([42, "intro"], [["p", 2]]), 2); // { values: [42, "intro"], state: { p: 2 } }
 * ```
 */
export function pack(values: readonly KeyValue[], state: ReadonlyArray<readonly [string, KeyValue]>): Buffer {
  const out = new Writer();
  for (const value of values) writeValue(out, value);
  for (const [name, value] of state) {
    const bytes = Buffer.from(name, "utf8");
    out.varint(bytes.length);
    out.bytes(bytes);
    writeValue(out, value);
  }
  return out.done();
}

/** Reads what `pack` wrote for a key of `count` fields; throws `RangeError` on anything else. */
export function unpack(
  bytes: Buffer,
  count: number,
): { values: KeyValue[]; state: Record<string, KeyValue> } {
  const input = new Reader(bytes);
  const values: KeyValue[] = [];
  for (let i = 0; i < count; i++) values.push(readValue(input));
  const state: Record<string, KeyValue> = Object.create(null);
  while (!input.atEnd()) {
    const name = input.take(input.varint()).toString("utf8");
    state[name] = readValue(input);
  }
  return { values, state: { ...state } };
}

const ATOM = 0;
const UINT = 1;
const NINT = 2;
const LONG_UTF8 = 3;
const UTF8 = 4;
const SIXBIT = 5;
const BIGINT = 6;
const LONG_BIGINT = 7;
// Atoms (type 0): their low 5 bits.
const NULL = 0;
const FALSE = 1;
const TRUE = 2;
const FLOAT = 3;
const UTF16 = 4; // a string with a lone surrogate, which UTF-8 cannot carry
const DATE = 5;
const DATE_BEFORE_1970 = 6;

/** The 64 characters a six-bit string may hold (base64url's, in its order). */
export const SIXBIT_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const SIXBIT_TEXT = /^[A-Za-z0-9_-]*$/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function writeValue(out: Writer, value: KeyValue): void {
  if (value === null || typeof value === "boolean") {
    out.byte(value === null ? NULL : value ? TRUE : FALSE);
  } else if (typeof value === "number") {
    if (Number.isSafeInteger(value)) out.sized(value < 0 ? NINT : UINT, value < 0 ? -value - 1 : value);
    else out.byte(FLOAT).float(value);
  } else if (typeof value === "string") {
    writeString(out, value);
  } else if (typeof value === "bigint") {
    const bytes = twosComplement(value);
    if (bytes.length < 32) out.byte((BIGINT << 5) | bytes.length);
    else out.sized(LONG_BIGINT, bytes.length - 32);
    out.bytes(bytes);
  } else {
    const ms = value.getTime();
    out.byte(ms < 0 ? DATE_BEFORE_1970 : DATE).varint(Math.abs(ms));
  }
}

function writeString(out: Writer, value: string): void {
  if (SIXBIT_TEXT.test(value)) {
    out.sized(SIXBIT, value.length);
    const packed = Buffer.alloc(Math.ceil((value.length * 6) / 8));
    for (let i = 0; i < value.length; i++) {
      const bits = SIXBIT_ALPHABET.indexOf(itemAt(value, i));
      const at = i * 6;
      // Six bits straddle at most two bytes: write them big-endian from bit `at`.
      const word = bits << (10 - (at % 8));
      packed[at >> 3] = itemAt(packed, at >> 3) | (word >> 8);
      if ((at >> 3) + 1 < packed.length)
        packed[(at >> 3) + 1] = itemAt(packed, (at >> 3) + 1) | (word & 0xff);
    }
    out.bytes(packed);
  } else if (LONE_SURROGATE.test(value)) {
    out.byte(UTF16).varint(value.length);
    const units = Buffer.alloc(value.length * 2);
    for (let i = 0; i < value.length; i++) units.writeUInt16LE(value.charCodeAt(i), i * 2);
    out.bytes(units);
  } else {
    const bytes = Buffer.from(value, "utf8");
    if (bytes.length < 32) out.byte((UTF8 << 5) | bytes.length);
    else out.sized(LONG_UTF8, bytes.length - 32);
    out.bytes(bytes);
  }
}

function readValue(input: Reader): KeyValue {
  const tag = input.byte();
  const type = tag >> 5;
  const small = tag & 31;
  switch (type) {
    case ATOM:
      return readAtom(input, small);
    case UINT:
      return input.sized(small);
    case NINT:
      return -input.sized(small) - 1;
    case LONG_UTF8:
      return input.take(32 + input.sized(small)).toString("utf8");
    case UTF8:
      return input.take(small).toString("utf8");
    case SIXBIT: {
      const length = input.sized(small);
      const packed = input.take(Math.ceil((length * 6) / 8));
      let text = "";
      for (let i = 0; i < length; i++) {
        const at = i * 6;
        const word = (itemAt(packed, at >> 3) << 8) | (packed[(at >> 3) + 1] ?? 0);
        text += SIXBIT_ALPHABET[(word >> (10 - (at % 8))) & 63];
      }
      return text;
    }
    case BIGINT:
      return fromTwosComplement(input.take(small));
    default:
      return fromTwosComplement(input.take(32 + input.sized(small)));
  }
}

function readAtom(input: Reader, small: number): KeyValue {
  switch (small) {
    case NULL:
      return null;
    case FALSE:
      return false;
    case TRUE:
      return true;
    case FLOAT:
      return input.float();
    case UTF16: {
      const units = input.take(input.varint() * 2);
      let text = "";
      for (let i = 0; i < units.length; i += 2) text += String.fromCharCode(units.readUInt16LE(i));
      return text;
    }
    case DATE:
    case DATE_BEFORE_1970: {
      const ms = input.varint();
      const date = new Date(small === DATE ? ms : -ms);
      if (Number.isNaN(date.getTime())) throw new RangeError("date out of range");
      return date;
    }
    default:
      throw new RangeError("unknown atom");
  }
}

/** The fewest bytes that hold `value` in two's complement, big-endian (none for 0). */
function twosComplement(value: bigint): Buffer {
  if (value === 0n) return Buffer.alloc(0);
  let length = 1;
  while (value >= 1n << BigInt(8 * length - 1) || value < -(1n << BigInt(8 * length - 1))) length++;
  const unsigned = value < 0n ? (1n << BigInt(8 * length)) + value : value;
  return Buffer.from(unsigned.toString(16).padStart(2 * length, "0"), "hex");
}

function fromTwosComplement(bytes: Buffer): bigint {
  if (bytes.length === 0) return 0n;
  const unsigned = BigInt(`0x${bytes.toString("hex")}`);
  return itemAt(bytes, 0) & 0x80 ? unsigned - (1n << BigInt(8 * bytes.length)) : unsigned;
}

/** Bytes written in chunks: a request state may carry kilobytes of answers. */
class Writer {
  private readonly chunks: Buffer[] = [];
  private readonly small: number[] = [];

  byte(value: number): this {
    this.small.push(value);
    return this;
  }

  /** A tag whose low 5 bits hold `n` when it is below 31; otherwise 31, then `n − 31`. */
  sized(type: number, n: number): this {
    return n < 31 ? this.byte((type << 5) | n) : this.byte((type << 5) | 31).varint(n - 31);
  }

  /** LEB128, by arithmetic: a safe integer may pass 32 bits. */
  varint(n: number): this {
    let rest = n;
    while (rest >= 128) {
      this.byte((rest % 128) | 128);
      rest = Math.floor(rest / 128);
    }
    return this.byte(rest);
  }

  float(value: number): this {
    const bytes = Buffer.alloc(8);
    bytes.writeDoubleBE(value);
    return this.bytes(bytes);
  }

  bytes(bytes: Buffer): this {
    this.flush();
    this.chunks.push(bytes);
    return this;
  }

  done(): Buffer {
    this.flush();
    return Buffer.concat(this.chunks);
  }

  private flush(): void {
    if (this.small.length === 0) return;
    this.chunks.push(Buffer.from(this.small));
    this.small.length = 0;
  }
}

class Reader {
  private at = 0;
  constructor(private readonly buffer: Buffer) {}

  atEnd(): boolean {
    return this.at >= this.buffer.length;
  }

  byte(): number {
    const value = this.buffer[this.at++];
    if (value === undefined) throw new RangeError("the packed values end too soon");
    return value;
  }

  sized(small: number): number {
    return small < 31 ? small : 31 + this.varint();
  }

  varint(): number {
    let value = 0;
    let scale = 1;
    for (;;) {
      const byte = this.byte();
      value += (byte & 127) * scale;
      if (byte < 128) break;
      scale *= 128;
      if (scale > 2 ** 56) throw new RangeError("varint too long");
    }
    if (!Number.isSafeInteger(value)) throw new RangeError("varint too large");
    return value;
  }

  float(): number {
    const value = this.take(8).readDoubleBE(0);
    if (!Number.isFinite(value)) throw new RangeError("not a finite number");
    return value;
  }

  take(length: number): Buffer {
    if (this.at + length > this.buffer.length) throw new RangeError("the packed values end too soon");
    const slice = this.buffer.subarray(this.at, this.at + length);
    this.at += length;
    return slice;
  }
}
