import { fieldOf, itemAt } from "../common/guards.js";
import { type EncodedContent, encodeContent, ITEM_SEPARATOR, indexedText } from "./content-index.js";

/** How the yielding encoder cuts its work (the defaults suit production; tests make them small). */
export interface EncodeTuning {
  /** Longest stretch of work, in milliseconds, before other calls get to run (default 8). */
  readonly sliceMs?: number;
  /** Arrays of at most this many items are encoded in one go (default 2,048). */
  readonly smallItems?: number;
  /** Strings of at most this many characters are encoded in one go (default 1 Mi). */
  readonly smallText?: number;
  /** Objects with fewer nodes than this are serialized in one go (default 2,048). */
  readonly smallNodes?: number;
}

const DEFAULTS = { sliceMs: 8, smallItems: 2048, smallText: 1024 * 1024, smallNodes: 2048 };
/** Characters of JSON gathered before they become bytes. */
const BATCH_CHARS = 256 * 1024;

/**
 * `encodeContent`, byte for byte, for values of any size without holding the event loop:
 * a JSON array is encoded item by item, a string is turned into bytes and indexed by line
 * in chunks, and an object's pretty-printed JSON is built piece by piece, each letting
 * other sessions' calls run every few milliseconds. Small values take the one-go path.
 *
 * The value must not change until the returned promise settles (the handler awaits
 * `ctx.resources.create`, so it does not).
 */
export async function encodeContentYielding(
  value: unknown,
  mimeType?: string,
  tuning: EncodeTuning = {},
): Promise<EncodedContent> {
  const t = { ...DEFAULTS, ...tuning };
  const pacer = new Pacer(t.sliceMs);
  if (value instanceof Uint8Array) return encodeContent(value, mimeType);
  if (Array.isArray(value)) {
    if (value.length <= t.smallItems) return encodeContent(value, mimeType);
    return encodeJsonArray(value, mimeType ?? "application/json", pacer);
  }
  if (typeof value === "string") {
    if (value.length <= t.smallText) return encodeContent(value, mimeType);
    return encodeTextBytes(await textBytes(value, pacer), mimeType ?? "text/plain", pacer);
  }
  if (!walkable(value) || countNodes(value, t.smallNodes) < t.smallNodes)
    return encodeContent(value, mimeType);
  const batches = new Batches();
  await pacer.drain(prettyPieces(value, "", t.smallNodes, new Set()), (piece) => batches.add(piece));
  return encodeTextBytes(batches.bytes(), mimeType ?? "application/json", pacer);
}

/** Lets the event loop run once `sliceMs` of work has passed since it last did. */
class Pacer {
  private since = performance.now();
  constructor(private readonly sliceMs: number) {}

  /** Yields to the event loop when the current stretch of work is long enough. */
  async pace(): Promise<void> {
    if (performance.now() - this.since < this.sliceMs) return;
    await new Promise((resolve) => setImmediate(resolve));
    this.since = performance.now();
  }

  /** `Buffer.concat`, copying a buffer at a time: tens of megabytes are not one long copy. */
  async concat(buffers: readonly Buffer[]): Promise<Buffer> {
    let size = 0;
    for (const buffer of buffers) size += buffer.length;
    const joined = Buffer.allocUnsafe(size);
    let at = 0;
    for (const buffer of buffers) {
      await this.pace();
      at += buffer.copy(joined, at);
    }
    return joined;
  }

  /** Feeds every piece to `take`, pacing every few pieces. */
  async drain(pieces: Iterable<string>, take: (piece: string) => void): Promise<void> {
    let n = 0;
    for (const piece of pieces) {
      take(piece);
      if ((++n & 15) === 0) await this.pace();
    }
  }
}

/** Strings gathered into byte buffers of about `BATCH_CHARS` characters each. */
class Batches {
  private readonly buffers: Buffer[] = [];
  private pending: string[] = [];
  private chars = 0;

  add(piece: string): void {
    this.pending.push(piece);
    this.chars += piece.length;
    if (this.chars >= BATCH_CHARS) this.flush();
  }

  bytes(): Buffer[] {
    this.flush();
    return this.buffers;
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    this.buffers.push(Buffer.from(this.pending.join("")));
    this.pending = [];
    this.chars = 0;
  }
}

async function encodeJsonArray(
  items: readonly unknown[],
  mimeType: string,
  pacer: Pacer,
): Promise<EncodedContent> {
  const batches = new Batches();
  batches.add("[\n");
  const offsets = new Float64Array(items.length + 1);
  let position = 2;
  for (let i = 0; i < items.length; i++) {
    if ((i & 7) === 0) await pacer.pace();
    offsets[i] = position;
    // JSON text never holds a lone surrogate, so its UTF-8 length is exact and batches can join it.
    const json = JSON.stringify(items[i], replacer) ?? "null";
    batches.add(json);
    batches.add(i < items.length - 1 ? ITEM_SEPARATOR : "\n]");
    position += Buffer.byteLength(json) + ITEM_SEPARATOR.length;
  }
  offsets[items.length] = position;
  const content = await pacer.concat(batches.bytes());
  return {
    kind: "json-array",
    content,
    index: Buffer.from(offsets.buffer),
    total: items.length,
    mimeType,
  };
}

/** The UTF-8 bytes of a long string, converted a chunk at a time (never splitting a surrogate pair). */
async function textBytes(text: string, pacer: Pacer): Promise<Buffer[]> {
  const chunk = 1024 * 1024;
  const buffers: Buffer[] = [];
  for (let at = 0; at < text.length; ) {
    let end = Math.min(at + chunk, text.length);
    if (
      end < text.length &&
      isHighSurrogate(text.charCodeAt(end - 1)) &&
      isLowSurrogate(text.charCodeAt(end))
    )
      end++;
    buffers.push(Buffer.from(text.slice(at, end)));
    at = end;
    await pacer.pace();
  }
  return buffers;
}

/** Text content and its line index (as `encodeContent` builds them), scanning for newlines in steps. */
async function encodeTextBytes(buffers: Buffer[], mimeType: string, pacer: Pacer): Promise<EncodedContent> {
  const content = buffers.length === 1 ? itemAt(buffers, 0) : await pacer.concat(buffers);
  const starts: number[] = [0];
  const step = 1024 * 1024;
  for (let from = 0; from < content.length; from += step) {
    const until = Math.min(from + step, content.length);
    for (let at = content.indexOf(10, from); at !== -1 && at < until; at = content.indexOf(10, at + 1))
      starts.push(at + 1);
    await pacer.pace();
  }
  return indexedText(content, starts, mimeType);
}

/**
 * `JSON.stringify(value, replacer, 2)` of an array or plain object, as pieces: large ones
 * are walked here, member by member; small ones and anything special (a `toJSON`, a class
 * instance, a boxed primitive) are serialized natively and re-indented to sit in place.
 */
function* prettyPieces(
  value: Record<PropertyKey, unknown>,
  indent: string,
  smallNodes: number,
  ancestors: Set<object>,
): Generator<string> {
  if (countNodes(value, smallNodes) < smallNodes) {
    yield native(value, indent) as string;
    return;
  }
  if (ancestors.has(value)) throw new TypeError("Converting circular structure to JSON");
  ancestors.add(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      yield i === 0 ? `[\n${inner}` : `,\n${inner}`;
      const item: unknown = value[i];
      if (walkable(item)) yield* prettyPieces(item, inner, smallNodes, ancestors);
      else yield native(item, inner, String(i)) ?? "null";
    }
    yield value.length === 0 ? "[]" : `\n${indent}]`;
  } else {
    let first = true;
    for (const name of Object.keys(value)) {
      const child = value[name];
      const head = `${first ? "{" : ","}\n${inner}${JSON.stringify(name)}: `;
      if (walkable(child)) {
        yield head;
        yield* prettyPieces(child, inner, smallNodes, ancestors);
      } else {
        const text = native(child, inner, name);
        if (text === undefined) continue; // undefined, functions and symbols leave the key out
        yield head + text;
      }
      first = false;
    }
    yield first ? "{}" : `\n${indent}}`;
  }
  ancestors.delete(value);
}

/** Arrays and plain objects (no `toJSON`), which the pretty printer walks itself. */
function walkable(value: unknown): value is Record<PropertyKey, unknown> {
  if (typeof value !== "object" || value === null) return false;
  if (Array.isArray(value)) return true;
  const proto = Object.getPrototypeOf(value);
  return (proto === Object.prototype || proto === null) && typeof fieldOf(value, "toJSON") !== "function";
}

/**
 * The native pretty JSON of a value, indented to sit at `indent`; undefined when JSON
 * leaves it out. A value with `toJSON` is serialized as the member `key` of a holder, so
 * `toJSON(key)` sees its real key, as in one `JSON.stringify` of the whole value.
 */
function native(value: unknown, indent: string, key?: string): string | undefined {
  if (key !== undefined && hasToJson(value)) {
    const holder = JSON.stringify({ [key]: value }, replacer, 2);
    if (holder === "{}") return undefined;
    const head = `{\n  ${JSON.stringify(key)}: `;
    return holder.slice(head.length, -2).replaceAll("\n  ", `\n${indent}`);
  }
  // `undefined` for a value JSON leaves out (a function, a symbol), whatever the declared type says.
  const text: string | undefined = JSON.stringify(value, replacer, 2);
  return text === undefined || indent === "" ? text : text.replaceAll("\n", `\n${indent}`);
}

function hasToJson(value: unknown): boolean {
  return (
    (typeof value === "object" || typeof value === "bigint") &&
    value !== null &&
    typeof fieldOf(value, "toJSON") === "function"
  );
}

/** Nodes of a value (walkable containers and their members), counting at most to `cap`. */
function countNodes(value: unknown, cap: number): number {
  let count = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const next = stack.pop();
    if (++count + stack.length >= cap) return cap;
    if (!walkable(next)) continue;
    if (Array.isArray(next)) {
      if (next.length + count + stack.length >= cap) return cap;
      for (const item of next) stack.push(item);
    } else {
      const names = Object.keys(next);
      if (names.length + count + stack.length >= cap) return cap;
      for (const name of names) stack.push(next[name]);
    }
  }
  return count;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Bigints survive as strings, as `encodeContent` stores them. */
function replacer(_key: string, value: unknown): unknown {
  return typeof value === "bigint" ? value.toString() : value;
}
