import { describe, expect, it } from "vitest";
import { FrugalConfigError } from "../../../../src/errors/config-error.js";
import { loadV2Sdk, missingPackages } from "../../../../src/protocol/registrar-2026/v2-sdk.js";

describe("loading the SDK v2 packages (optional peers)", () => {
  it("turns a missing package into a start-up error naming the packages and the fix", () => {
    const notFound = Object.assign(new Error("Cannot find package '@modelcontextprotocol/server'"), {
      code: "ERR_MODULE_NOT_FOUND",
    });
    const error = missingPackages(notFound);
    expect(error).toBeInstanceOf(FrugalConfigError);
    expect((error as Error).message).toMatch(
      /protocol: "2026-07-28".*not installed.*npm install @modelcontextprotocol\/server @modelcontextprotocol\/node/,
    );
    expect((error as Error).cause).toBe(notFound);
  });

  it("leaves other failures as they are", () => {
    const broken = new SyntaxError("Unexpected token");
    expect(missingPackages(broken)).toBe(broken);
  });

  it("loads the installed packages once", async () => {
    const first = loadV2Sdk();
    expect(loadV2Sdk()).toBe(first);
    const sdk = await first;
    expect(typeof sdk.server.createMcpHandler).toBe("function");
    expect(typeof sdk.stdio.serveStdio).toBe("function");
    expect(typeof sdk.node.toNodeHandler).toBe("function");
  });
});
