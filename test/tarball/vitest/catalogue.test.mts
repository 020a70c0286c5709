// The tarball test's check of `frugal-mcp/testing/vitest`, run by vitest (installed only for
// this step: it is an optional peer) against the compiled notes server over stdio: the
// matchers pass within a ceiling and fail over it with the measured cost. An .mts file, so it
// is an ES module in the CommonJS project too.
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import "frugal-mcp/testing/vitest";
import { tokensOf } from "frugal-mcp/testing";
import { afterAll, beforeAll, expect, it } from "vitest";

let client: Client;
beforeAll(async () => {
  client = new Client({ name: "tarball-vitest", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [fileURLToPath(new URL("../dist/server.js", import.meta.url))],
      env: {
        ...getDefaultEnvironment(),
        NOTES_CURSOR_SECRET: "tarball-test-cursor-secret-0123456789",
        FRUGAL_LOG_LEVEL: "warn",
      },
      stderr: "inherit",
    }),
  );
});
afterAll(() => client?.close());

it("holds the catalogue to a ceiling, and fails over it saying what it costs", async () => {
  await expect(client).catalogueToCostAtMost(2_000);
  await expect(expect(client).catalogueToCostAtMost(10)).rejects.toThrow(
    /expected the tool list to cost at most 10 tokens \(o200k\), but its 5 tools cost [\d,]+ .*The costliest: /,
  );
});

it("holds a result to a ceiling, and fails over it saying what it costs", async () => {
  const result = await client.callTool({ name: "add_note", arguments: { title: "Vitest", body: "x" } });
  expect(result).toCostAtMost(200);
  const cost = tokensOf(result);
  expect(() => expect(result).toCostAtMost(0)).toThrow(
    `expected the result to cost at most 0 tokens (o200k), but it costs ${cost}`,
  );
});
