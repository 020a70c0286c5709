import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { createTestClient, LOGGER, type Logger, McpModule, McpService, Tool } from "frugal-mcp";
import { afterEach, describe, expect, it, vi } from "vitest";

interface Entry {
  level: "debug" | "info" | "warn" | "error";
  message: string;
  details: unknown;
}

/** A LOGGER provider that keeps every entry. */
class CapturingLogger implements Logger {
  readonly entries: Entry[] = [];
  debug(message: string, details?: unknown) {
    this.entries.push({ level: "debug", message, details });
  }
  info(message: string, details?: unknown) {
    this.entries.push({ level: "info", message, details });
  }
  warn(message: string, details?: unknown) {
    this.entries.push({ level: "warn", message, details });
  }
  error(message: string, details?: unknown) {
    this.entries.push({ level: "error", message, details });
  }
}

function explodeDeepInside(): never {
  throw new Error("the ledger is locked");
}

@McpService()
class LedgerService {
  @Tool()
  settle() {
    explodeDeepInside();
  }
}

@McpModule({ services: [LedgerService], providers: [{ provide: LOGGER, useClass: CapturingLogger }] })
class LedgerModule {}

@McpModule({ services: [LedgerService] })
class PlainLedgerModule {}

describe("a tool's thrown error", () => {
  const previousLevel = process.env.FRUGAL_LOG_LEVEL;
  afterEach(() => {
    vi.restoreAllMocks();
    if (previousLevel === undefined) delete process.env.FRUGAL_LOG_LEVEL;
    else process.env.FRUGAL_LOG_LEVEL = previousLevel;
  });

  it("is logged at warn with its stack by the app's LOGGER; the client sees only the message", async () => {
    const t = await createTestClient(LedgerModule);
    const result = (await t.client.callTool({ name: "settle", arguments: {} })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: "text", text: "the ledger is locked" }]);
    expect(JSON.stringify(result)).not.toContain("explodeDeepInside");

    const logger = t.app.get(LOGGER) as CapturingLogger;
    const warnings = logger.entries.filter((e) => e.level === "warn");
    expect(warnings.map((e) => e.message)).toEqual([
      'tool "settle" (LedgerService.settle) failed: the ledger is locked',
    ]);
    const logged = warnings[0]?.details as Error;
    expect(logged).toBeInstanceOf(Error);
    expect(logged.stack).toContain("explodeDeepInside");
    await t.close();
  });

  it("reaches stderr with its stack through the default logger, unless FRUGAL_LOG_LEVEL hides warnings", async () => {
    const written: string[] = [];
    vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    delete process.env.FRUGAL_LOG_LEVEL;
    const t = await createTestClient(PlainLedgerModule);
    await t.client.callTool({ name: "settle", arguments: {} });
    const line = written.find((w) => w.includes('tool "settle"'));
    expect(line).toMatch(
      /^\[frugal-mcp\] warn: tool "settle" \(LedgerService\.settle\) failed: the ledger is locked Error: the ledger is locked\n\s+at explodeDeepInside/,
    );
    await t.close();

    written.length = 0;
    process.env.FRUGAL_LOG_LEVEL = "error";
    const quiet = await createTestClient(PlainLedgerModule);
    await quiet.client.callTool({ name: "settle", arguments: {} });
    expect(written.filter((w) => w.includes('tool "settle"'))).toEqual([]);
    await quiet.close();
  });
});
