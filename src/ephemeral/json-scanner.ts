import { itemAt } from "../common/guards.js";
import { pointerSegment } from "./json-pointer.js";

/** JSON text the scanner cannot read; the message says where. */
export class JsonScanError extends Error {}

/** What a value is, as the scanner meets its first character. */
export type ScannedKind = "string" | "object" | "array" | "primitive";

/** What the scanner tells its visitor, in document order. */
export interface ScanVisitor {
  /**
   * A value starts at `pointer()` (valid only during this call and, for a string, until
   * its `end`). Answer `"read"` to receive a string's decoded pieces, `"stop"` to end the
   * scan, anything else to go on.
   */
  value(kind: ScannedKind, pointer: () => string): "read" | "stop" | undefined;
  /** A decoded piece of the string being read. */
  piece(text: string): void;
  /** The string being read ended; `true` ends the scan. */
  end(): boolean;
}

type Mode =
  | "value"
  | "valueOrClose"
  | "key"
  | "keyOrClose"
  | "inKey"
  | "colon"
  | "after"
  | "inString"
  | "primitive"
  | "done";
interface Frame {
  readonly array: boolean;
  key: string;
  index: number;
}

const SIMPLE_ESCAPES: Record<string, string> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};
const isSpace = (c: string) => c === " " || c === "\n" || c === "\r" || c === "\t";
const PRIMITIVE_CHAR = /[0-9A-Za-z.+-]/;

/**
 * Reads JSON text fed in pieces of any size (a piece may end inside a string or an escape)
 * and tells a visitor where each value starts and, when asked, the decoded text of a
 * string: so a 100 MB JSON value can be searched or read by JSON Pointer holding one
 * piece and one string at a time, never the whole value. Lenient where the text came
 * from `JSON.stringify` anyway; it throws a `JsonScanError` on what cannot be JSON.
 */
export class JsonScanner {
  private mode: Mode = "value";
  private readonly frames: Frame[] = [];
  private reading = false;
  private key = "";
  /** An escape begun at the end of the last piece (`\` or `\u12`). */
  private escape = "";
  private stopped = false;
  private position = 0;
  /** In the piece being fed: the next quote and backslash found (-1: none left; -2: not looked for yet). */
  private quoteAt = -2;
  private backslashAt = -2;

  constructor(private readonly visitor: ScanVisitor) {}

  /** True once the visitor asked to stop, or the value ended. */
  get finished(): boolean {
    return this.stopped || this.mode === "done";
  }

  private pointer = (): string => {
    let text = "";
    for (const frame of this.frames) text += `/${frame.array ? frame.index : pointerSegment(frame.key)}`;
    return text;
  };

  /** Feeds the next piece of the text. */
  feed(text: string): void {
    let i = 0;
    this.quoteAt = -2;
    this.backslashAt = -2;
    while (i < text.length && !this.stopped) {
      if (this.mode === "inString" || this.mode === "inKey") {
        i = this.stringPart(text, i);
        continue;
      }
      const c = itemAt(text, i);
      if (this.mode === "primitive") {
        if (PRIMITIVE_CHAR.test(c)) {
          i++;
          continue;
        }
        this.mode = "after";
      }
      i++;
      if (isSpace(c)) continue;
      this.symbol(c);
    }
    this.position += text.length;
  }

  /** Says the text ended: throws when it ended inside a value. */
  finish(): void {
    if (this.stopped || this.mode === "done") return;
    if (this.mode === "primitive" && this.frames.length === 0) return;
    throw new JsonScanError("the JSON text ends inside a value");
  }

  private symbol(c: string): void {
    const mode = this.mode;
    if (mode === "value" || mode === "valueOrClose") {
      if (mode === "valueOrClose" && c === "]") this.close(true);
      else this.startValue(c);
    } else if (mode === "key" || mode === "keyOrClose") {
      if (mode === "keyOrClose" && c === "}") this.close(false);
      else if (c !== '"') this.fail(c, "a key");
      else {
        this.key = "";
        this.mode = "inKey";
      }
    } else if (mode === "colon") {
      if (c !== ":") this.fail(c, '":"');
      this.mode = "value";
    } else if (mode === "after") this.afterValue(c);
    else this.fail(c, "the end");
  }

  /** After a value: a comma, or the bracket that closes its container. */
  private afterValue(c: string): void {
    const frame = this.frames[this.frames.length - 1];
    if (!frame) this.fail(c, "the end");
    if (c === ",") {
      if (frame.array) frame.index++;
      this.mode = frame.array ? "value" : "key";
    } else if (c === (frame.array ? "]" : "}")) this.close(frame.array);
    else this.fail(c, '"," or a closing bracket');
  }

  private startValue(c: string): void {
    const kind: ScannedKind = c === '"' ? "string" : c === "{" ? "object" : c === "[" ? "array" : "primitive";
    if (kind === "primitive" && !PRIMITIVE_CHAR.test(c)) this.fail(c, "a value");
    const action = this.visitor.value(kind, this.pointer);
    if (action === "stop") this.stopped = true;
    else if (kind === "string") {
      this.reading = action === "read";
      this.mode = "inString";
    } else if (kind === "primitive") this.mode = "primitive";
    else {
      this.frames.push({ array: kind === "array", key: "", index: 0 });
      this.mode = kind === "array" ? "valueOrClose" : "keyOrClose";
    }
  }

  private close(array: boolean): void {
    const frame = this.frames.pop();
    if (!frame || frame.array !== array) this.fail(array ? "]" : "}", "a matching bracket");
    this.mode = this.frames.length === 0 ? "done" : "after";
  }

  /** Reads string text from `i` (of a key or a value) up to its end or the piece's; returns where it stopped. */
  private stringPart(text: string, i: number): number {
    let at = i;
    if (this.escape !== "") {
      at = this.continueEscape(text, at);
      if (this.escape !== "") return text.length;
    }
    for (;;) {
      // Where the next quote and backslash are, searched again only once passed: a long
      // string with many escapes and no quote must not be scanned to its end at each escape.
      if (this.quoteAt !== -1 && this.quoteAt < at) this.quoteAt = text.indexOf('"', at);
      if (this.backslashAt !== -1 && this.backslashAt < at) this.backslashAt = text.indexOf("\\", at);
      const quote = this.quoteAt;
      const backslash = this.backslashAt;
      const stop = quote === -1 ? backslash : backslash === -1 ? quote : Math.min(quote, backslash);
      if (stop === -1) {
        this.emit(text.slice(at));
        return text.length;
      }
      if (stop > at) this.emit(text.slice(at, stop));
      if (stop === quote) {
        this.endString();
        return stop + 1;
      }
      this.escape = "\\";
      at = this.continueEscape(text, stop + 1);
      if (this.escape !== "") return text.length;
    }
  }

  /** Adds characters of `text` from `at` to the pending escape; decodes it once whole. */
  private continueEscape(text: string, at: number): number {
    let i = at;
    while (i < text.length) {
      this.escape += text[i++];
      if (this.escape.length === 2 && this.escape[1] !== "u") {
        const decoded = SIMPLE_ESCAPES[itemAt(this.escape, 1)];
        if (decoded === undefined) this.fail(this.escape, "an escape sequence");
        this.escape = "";
        this.emit(decoded as string);
        return i;
      }
      if (this.escape.length === 6) {
        const code = Number.parseInt(this.escape.slice(2), 16);
        if (Number.isNaN(code)) this.fail(this.escape, "a \\u escape");
        this.escape = "";
        this.emit(String.fromCharCode(code));
        return i;
      }
    }
    return i;
  }

  private emit(piece: string): void {
    if (this.mode === "inKey") this.key += piece;
    else if (this.reading && piece !== "") this.visitor.piece(piece);
  }

  private endString(): void {
    if (this.mode === "inKey") {
      const frame = itemAt(this.frames, this.frames.length - 1);
      frame.key = this.key;
      this.mode = "colon";
      return;
    }
    const reading = this.reading;
    this.reading = false;
    this.mode = this.frames.length === 0 ? "done" : "after";
    if (reading && this.visitor.end()) this.stopped = true;
  }

  private fail(found: string, expected: string): never {
    throw new JsonScanError(
      `not valid JSON near character ${this.position}: found ${JSON.stringify(found)} where ${expected} was expected`,
    );
  }
}
