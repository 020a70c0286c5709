import { PassThrough } from "node:stream";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { QUARANTINED_PROGRESS_TOKEN } from "../../../src/transports/progress-token.js";
import { StdioTransport } from "../../../src/transports/stdio-transport.js";

/** A transport on in-memory pipes, with what it delivered, answered and logged. */
function pipes(options: { maxLineBytes?: number } = {}) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const errors: string[] = [];
  const logger = { debug() {}, info() {}, warn() {}, error: (m: string) => void errors.push(m) };
  const transport = new StdioTransport(logger, stdin, stdout, options);
  const received: JSONRPCMessage[] = [];
  transport.onmessage = (message) => void received.push(message);
  let out = "";
  stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString();
  });
  /** The messages written to stdout so far, one per line. */
  const answers = () =>
    out
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { id?: unknown; error?: { code: number; message: string } });
  return { stdin, transport, received, errors, answers };
}

let open: StdioTransport | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

describe("StdioTransport", () => {
  it("delivers one message per line, across chunk boundaries and with CRLF endings", async () => {
    const t = pipes();
    open = t.transport;
    await t.transport.start();
    t.stdin.write('{"jsonrpc":"2.0","id":1,"meth');
    t.stdin.write('od":"ping"}\r\n\n{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    expect(t.received).toEqual([
      { jsonrpc: "2.0", id: 1, method: "ping" },
      { jsonrpc: "2.0", method: "notifications/initialized" },
    ]);
  });

  it("answers a line that is not JSON -32700, and one that is no message -32600 with its id", async () => {
    const t = pipes();
    open = t.transport;
    await t.transport.start();
    t.stdin.write("{oops\n");
    t.stdin.write('{"jsonrpc":"2.0","id":"r7","method":5}\n');
    t.stdin.write('[{"jsonrpc":"2.0","id":1,"method":"ping"}]\n');
    expect(t.received).toEqual([]);
    const [parse, invalid, batch] = t.answers();
    expect(parse).toMatchObject({ error: { code: -32700 } });
    expect(parse).not.toHaveProperty("id");
    expect(invalid).toMatchObject({ id: "r7", error: { code: -32600 } });
    expect(batch?.error?.message).toMatch(/batches are not supported/);
  });

  it("skips an over-long line without buffering it, answers its request id, and goes on", async () => {
    const t = pipes({ maxLineBytes: 1024 });
    open = t.transport;
    await t.transport.start();
    const big = JSON.stringify({
      jsonrpc: "2.0",
      id: 42,
      method: "tools/call",
      params: { x: "y".repeat(5000) },
    });
    for (let at = 0; at < big.length; at += 700) t.stdin.write(big.slice(at, at + 700));
    t.stdin.write('\n{"jsonrpc":"2.0","id":43,"method":"ping"}\n');
    expect(t.answers()).toEqual([
      {
        jsonrpc: "2.0",
        id: 42,
        error: { code: -32600, message: expect.stringMatching(/^Request too large: .* at most 1024 bytes/) },
      },
    ]);
    expect(t.errors).toEqual([
      expect.stringMatching(
        /skipped a message of \d+ bytes, over the 1024-byte line limit; answered request 42/,
      ),
    ]);
    expect(t.received).toEqual([{ jsonrpc: "2.0", id: 43, method: "ping" }]);
  });

  it("finds the id at the end of an over-long line in the SDK client's layout, and says when it cannot", async () => {
    const t = pipes({ maxLineBytes: 1024 });
    open = t.transport;
    await t.transport.start();
    t.stdin.write(
      `{"method":"tools/call","params":{"x":"${"z".repeat(3000)}"},"jsonrpc":"2.0","id":"late"}\n`,
    );
    t.stdin.write(`{"params":{"x":"${"z".repeat(3000)}"},"method":"tools/call","jsonrpc":"2.0","id":9}\n`);
    expect(t.answers().map((a) => a.id)).toEqual(["late"]);
    expect(t.errors[1]).toMatch(/its request id could not be read, so it gets no answer/);
  });

  it("moves an invalid progress token aside instead of refusing the message", async () => {
    const t = pipes();
    open = t.transport;
    await t.transport.start();
    t.stdin.write(
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"progressToken":1.5}}}\n',
    );
    expect(t.received).toEqual([
      {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { _meta: { [QUARANTINED_PROGRESS_TOKEN]: 1.5 } },
      },
    ]);
  });

  it("refuses a second start, and stops reading once closed", async () => {
    const t = pipes();
    let closed = 0;
    t.transport.onclose = () => void closed++;
    await t.transport.start();
    await expect(t.transport.start()).rejects.toThrow("StdioTransport already started");
    await t.transport.close();
    t.stdin.write('{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
    expect(t.received).toEqual([]);
    expect(closed).toBe(1);
  });
});
