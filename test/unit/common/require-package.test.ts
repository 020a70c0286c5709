import { describe, expect, it } from "vitest";
import { requirePackage } from "../../../src/common/require-package.js";

describe("requirePackage", () => {
  it("loads a CommonJS dependency synchronously, resolved from the framework's own folder", () => {
    const tsyringe = requirePackage("tsyringe") as { container?: { resolve?: unknown } };
    expect(typeof tsyringe.container?.resolve).toBe("function");
    expect(requirePackage.resolve("tsyringe")).toMatch(/node_modules[\\/]tsyringe[\\/]/);
  });

  it("throws the usual MODULE_NOT_FOUND for a package that is not installed", () => {
    expect(() => requirePackage("frugal-mcp-no-such-package")).toThrow(
      expect.objectContaining({ code: "MODULE_NOT_FOUND" }),
    );
  });
});
