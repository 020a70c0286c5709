import { serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { type JSONRPCMessage, JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
import { fieldOf } from "../common/guards.js";
import type { Logger } from "../logging/logger.js";
import { asMessage } from "../sdk/sdk1-adapter.js";
import { quarantineProgressTokens } from "./progress-token.js";

/** Longest stdio line read, in bytes (10 MiB, as the SDK's own stdio transport). */
export const MAX_STDIO_LINE_BYTES = 10 * 1024 * 1024;

/** How much of a skipped line's start and end is kept, to find the request id. */
const EDGE_BYTES = 256;

const ID = String.raw`(-?\d+|"(?:[^"\\]|\\.)*")`;
/** `{"jsonrpc":"2.0","id":…,"method":…` — the usual hand-written layout. */
const ID_FIRST = new RegExp(
  String.raw`^\s*\{\s*"jsonrpc"\s*:\s*"2\.0"\s*,\s*"id"\s*:\s*${ID}\s*,\s*"method"\s*:`,
);
/** `{"method":…,"params":…,"jsonrpc":"2.0","id":…}` — the SDK client's layout. */
const METHOD_FIRST = /^\s*\{\s*"method"\s*:/;
const ID_LAST = new RegExp(String.raw`"id"\s*:\s*${ID}\s*\}\s*$`);

/**
 * Newline-delimited JSON-RPC over stdin/stdout, like the SDK's `StdioServerTransport`,
 * except that a line that is not valid JSON is answered `-32700`, and one that is no
 * JSON-RPC message `-32600` (with its id when it has a valid one), as JSON-RPC 2.0 asks
 * (the SDK's transport drops both silently, so a client waits for its own timeout); and
 * for a line longer than `maxLineBytes`: the SDK's transport reports it to an
 * `onerror` nobody set and closes, so the process exits with code 0 and says nothing. This
 * one skips the line without buffering it, logs an error naming the limit, answers
 * `-32600` when the request's id can be read from the line's start or end, and goes on.
 */
export class StdioTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;

  private parts: Buffer[] = [];
  private size = 0;
  /** Set while skipping an over-long line: its start, its end so far and its size. */
  private skipped: { head: Buffer; tail: Buffer; size: number } | undefined;
  private started = false;
  private readonly maxLineBytes: number;

  constructor(
    private readonly logger: Logger,
    private readonly stdin: NodeJS.ReadableStream = process.stdin,
    private readonly stdout: NodeJS.WritableStream = process.stdout,
    options: { maxLineBytes?: number } = {},
  ) {
    this.maxLineBytes = options.maxLineBytes ?? MAX_STDIO_LINE_BYTES;
  }

  async start(): Promise<void> {
    if (this.started) throw new Error("StdioTransport already started");
    this.started = true;
    this.stdin.on("data", this.ondata);
    this.stdin.on("error", this.onstdinerror);
  }

  async close(): Promise<void> {
    this.stdin.off("data", this.ondata);
    this.stdin.off("error", this.onstdinerror);
    if (this.stdin.listenerCount("data") === 0) this.stdin.pause();
    this.parts = [];
    this.size = 0;
    this.skipped = undefined;
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(serializeMessage(message))) resolve();
      else this.stdout.once("drain", resolve);
    });
  }

  private readonly onstdinerror = (error: Error) => this.onerror?.(error);

  private readonly ondata = (chunk: Buffer | string) => {
    const data = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    let start = 0;
    for (let newline = data.indexOf(10); newline !== -1; newline = data.indexOf(10, start)) {
      this.hold(data.subarray(start, newline));
      this.endLine();
      start = newline + 1;
    }
    if (start < data.length) this.hold(data.subarray(start));
  };

  /** Keeps part of the current line, or only its edges once it is over the limit. */
  private hold(part: Buffer): void {
    if (this.skipped) {
      this.skipped.size += part.length;
      this.skipped.tail = lastBytes(Buffer.concat([this.skipped.tail, part]));
      return;
    }
    if (this.size + part.length <= this.maxLineBytes) {
      this.parts.push(part);
      this.size += part.length;
      return;
    }
    const held = Buffer.concat([...this.parts, part.subarray(0, EDGE_BYTES)]);
    this.skipped = {
      head: held.subarray(0, EDGE_BYTES),
      tail: lastBytes(Buffer.concat([this.parts.at(-1) ?? Buffer.alloc(0), part])),
      size: this.size + part.length,
    };
    this.parts = [];
    this.size = 0;
  }

  private endLine(): void {
    if (this.skipped) {
      const skipped = this.skipped;
      this.skipped = undefined;
      this.refuse(skipped);
      return;
    }
    const line = Buffer.concat(this.parts).toString("utf8").replace(/\r$/, "");
    this.parts = [];
    this.size = 0;
    if (line.trim() === "") return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      // JSON-RPC 2.0: a parse error is answered, with no id (MCP 2025-11-25 allows that).
      this.answerInvalid(
        -32700,
        "Parse error: the line is not valid JSON; send one JSON-RPC message per line",
      );
      return;
    }
    quarantineProgressTokens(parsed); // answered -32602 by the app, naming the field
    const checked = JSONRPCMessageSchema.safeParse(parsed);
    if (!checked.success) {
      this.answerInvalid(
        -32600,
        `Invalid Request: ${Array.isArray(parsed) ? "batches are not supported; send one message per line" : "not a JSON-RPC 2.0 request, notification or response (jsonrpc, id, method and params must have their types)"}`,
        validId(parsed),
      );
      return;
    }
    this.onmessage?.(checked.data);
  }

  /** Answers a line that is no message (no answer is owed to a response the client sent). */
  private answerInvalid(code: number, message: string, id?: string | number): void {
    void this.send(
      asMessage({
        jsonrpc: "2.0",
        ...(id === undefined ? {} : { id }),
        error: { code, message },
      }),
    ).catch(() => {});
  }

  private refuse(skipped: { head: Buffer; tail: Buffer; size: number }): void {
    const id = requestId(skipped.head.toString("utf8"), skipped.tail.toString("utf8"));
    this.logger.error(
      `stdio: skipped a message of ${skipped.size} bytes, over the ${this.maxLineBytes}-byte line limit${
        id === undefined
          ? " (its request id could not be read, so it gets no answer)"
          : `; answered request ${JSON.stringify(id)} with -32600`
      }`,
    );
    if (id === undefined) return;
    void this.send({
      jsonrpc: "2.0",
      id,
      error: {
        code: -32600,
        message: `Request too large: a stdio message may be at most ${this.maxLineBytes} bytes; this one (${skipped.size} bytes) was skipped unread. Send less data per call`,
      },
    }).catch(() => {});
  }
}

function lastBytes(buffer: Buffer): Buffer {
  return buffer.length <= EDGE_BYTES ? buffer : Buffer.from(buffer.subarray(buffer.length - EDGE_BYTES));
}

/** The id of a skipped request, when its start or end shows it plainly; else `undefined`. */
function requestId(head: string, tail: string): string | number | undefined {
  const raw = ID_FIRST.exec(head)?.[1] ?? (METHOD_FIRST.test(head) ? ID_LAST.exec(tail)?.[1] : undefined);
  if (raw === undefined) return undefined;
  try {
    return JSON.parse(raw) as string | number;
  } catch {
    return undefined;
  }
}

/** The id of an invalid message when it is one a request may have (a string or an integer). */
function validId(message: unknown): string | number | undefined {
  if (message === null || typeof message !== "object" || Array.isArray(message)) return undefined;
  const id = fieldOf(message, "id");
  return typeof id === "string" || (typeof id === "number" && Number.isSafeInteger(id)) ? id : undefined;
}
