import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from "vitest";
import { StderrLogger } from "../../../src/logging/logger.js";

describe("StderrLogger", () => {
  let write: MockInstance;
  const written = () => write.mock.calls.map((call) => String(call[0]));

  beforeEach(() => {
    write = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
  });
  afterEach(() => {
    write.mockRestore();
    vi.unstubAllEnvs();
  });

  it("writes to stderr with a prefix and the level, dropping levels under its threshold", () => {
    const logger = new StderrLogger("warn");
    logger.debug("hidden");
    logger.info("hidden too");
    logger.warn("cursors will not survive a restart");
    logger.error("failed");
    expect(written()).toEqual([
      "[frugal-mcp] warn: cursors will not survive a restart\n",
      "[frugal-mcp] error: failed\n",
    ]);
  });

  it("appends details as JSON, and an Error as its stack", () => {
    const logger = new StderrLogger("debug");
    logger.debug("hit", { key: "a" });
    const error = new Error("boom");
    logger.error("call failed", error);
    expect(written()[0]).toBe('[frugal-mcp] debug: hit {"key":"a"}\n');
    expect(written()[1]).toContain("call failed Error: boom");
    expect(written()[1]).toContain("logger.test.ts");
  });

  it("falls back to String() for details JSON cannot write", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    new StderrLogger("info").info("odd", cyclic);
    expect(written()).toEqual(["[frugal-mcp] info: odd [object Object]\n"]);
  });

  it("writes nothing when silent, and takes its level from FRUGAL_LOG_LEVEL by default", () => {
    new StderrLogger("silent").error("never");
    expect(written()).toEqual([]);
    vi.stubEnv("FRUGAL_LOG_LEVEL", "error");
    const logger = new StderrLogger();
    logger.warn("dropped");
    logger.error("kept");
    expect(written()).toEqual(["[frugal-mcp] error: kept\n"]);
  });
});
