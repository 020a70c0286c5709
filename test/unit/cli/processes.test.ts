import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { runToEnd, stopProcess } from "../../../src/cli/processes.js";

/** A Node child running `code`, whose first line of output says it is ready. */
function child(code: string) {
  const started = spawn(process.execPath, ["-e", code], { stdio: ["ignore", "pipe", "inherit"] });
  const ready = new Promise<void>((resolve) => started.stdout.once("data", () => resolve()));
  return { started, ready };
}

describe("runToEnd", () => {
  it("resolves with the command's exit code", async () => {
    expect(await runToEnd(process.execPath, ["-e", "process.exit(3)"], { stdio: "ignore" })).toBe(3);
    expect(await runToEnd(process.execPath, ["-e", ""], { stdio: "ignore" })).toBe(0);
  });

  it("resolves 1 when the command cannot start", async () => {
    expect(await runToEnd("frugal-mcp-no-such-command", [], { stdio: "ignore" })).toBe(1);
  });
});

describe("stopProcess", () => {
  it("stops a child with SIGTERM and resolves once it exited", async () => {
    const { started, ready } = child("setInterval(() => {}, 1000); console.log('ready')");
    await ready;
    await stopProcess(started);
    expect(started.signalCode).toBe("SIGTERM");
  });

  it("kills a child that ignores SIGTERM once the grace period is over", async () => {
    const { started, ready } = child(
      "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000); console.log('ready')",
    );
    await ready;
    await stopProcess(started, 200);
    expect(started.signalCode).toBe("SIGKILL");
  });

  it("resolves at once for a child that already exited", async () => {
    const { started } = child("console.log('bye')");
    await new Promise((resolve) => started.once("exit", resolve));
    await expect(stopProcess(started)).resolves.toBeUndefined();
  });
});
