import { PassThrough } from "node:stream";
import type { JSONRPCMessage, Transport } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import { ListenedUris } from "../../../../src/protocol/registrar-2026/listened-uris.js";
import { stdioFront } from "../../../../src/protocol/registrar-2026/stdio-front.js";
import { StdioTransport } from "../../../../src/transports/stdio-transport.js";

const silent = { debug() {}, info() {}, warn() {}, error() {} };

/** The front over a real stdio transport on in-memory pipes, with what passed and what was answered. */
async function front(refuse: (message: JSONRPCMessage) => string | undefined = () => undefined) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  let written = "";
  stdout.on("data", (chunk: Buffer) => {
    written += chunk.toString();
  });
  const listened = new ListenedUris();
  const inner = new StdioTransport(silent, stdin, stdout) as unknown as Transport;
  const outer = stdioFront(inner, listened, refuse);
  const passed: JSONRPCMessage[] = [];
  let closed = 0;
  outer.onmessage = (message) => void passed.push(message);
  outer.onclose = () => void closed++;
  await outer.start();
  const line = (message: object) => stdin.write(`${JSON.stringify(message)}\n`);
  const answers = () =>
    written
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l));
  return { outer, listened, passed, line, answers, closedCount: () => closed };
}
const listen = (id: number, uris: string[]) => ({
  jsonrpc: "2.0",
  id,
  method: "subscriptions/listen",
  params: { notifications: { resourceSubscriptions: uris } },
});

describe("stdioFront", () => {
  it("passes messages on, and answers one it refuses with -32602 instead", async () => {
    const f = await front((m) =>
      (m as { method?: string }).method === "bad/method" ? "bad/method is refused here" : undefined,
    );
    f.line({ jsonrpc: "2.0", id: 1, method: "tools/list" });
    f.line({ jsonrpc: "2.0", id: 2, method: "bad/method" });
    f.line({ jsonrpc: "2.0", method: "bad/method" }); // a notification: refused without an answer
    expect(f.passed.map((m) => (m as { id?: number }).id)).toEqual([1]);
    await expect
      .poll(() => f.answers())
      .toEqual([{ jsonrpc: "2.0", id: 2, error: { code: -32602, message: "bad/method is refused here" } }]);
    await f.outer.close();
  });

  it("counts the URIs a listen stream holds until it is cancelled, replaced or the transport closes", async () => {
    const f = await front();
    f.line(listen(1, ["config://app"]));
    f.line(listen(2, ["sites://a", "config://app"]));
    expect([...f.listened.uris()].sort()).toEqual(["config://app", "sites://a"]);
    f.line({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 2 } });
    expect([...f.listened.uris()]).toEqual(["config://app"]);
    f.line(listen(1, ["other://x"])); // the same id again replaces its stream
    expect([...f.listened.uris()]).toEqual(["other://x"]);
    await f.outer.close();
    expect([...f.listened.uris()]).toEqual([]);
    expect(f.closedCount()).toBe(1);
  });
});
