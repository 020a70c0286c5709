import { describe, expect, it } from "vitest";
import { CliError } from "../../../src/cli/cli-error.js";

describe("CliError", () => {
  it("is an Error named CliError that carries the exit code (1 unless given)", () => {
    const plain = new CliError("no tsconfig.json in /app");
    expect(plain).toBeInstanceOf(Error);
    expect([plain.name, plain.message, plain.exitCode]).toEqual(["CliError", "no tsconfig.json in /app", 1]);
    expect(new CliError("usage", 2).exitCode).toBe(2);
    expect(String(new CliError("shown"))).toBe("CliError: shown");
  });
});
