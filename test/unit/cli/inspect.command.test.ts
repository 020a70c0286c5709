import { describe, expect, it } from "vitest";
import { INSPECTOR, inspectorArgs } from "../../../src/cli/inspect.command.js";

describe("frugal-mcp inspect: the Inspector's arguments", () => {
  it("pins the Inspector to one major version", () => {
    expect(INSPECTOR).toMatch(/^@modelcontextprotocol\/inspector@\d+$/);
  });

  it("puts the mode first (the Inspector requires it), then the app, then the rest in order", () => {
    expect(inspectorArgs({ url: "http://127.0.0.1:3000/mcp" }, ["--method", "tools/list", "--cli"])).toEqual([
      "--cli",
      "--transport",
      "http",
      "--server-url",
      "http://127.0.0.1:3000/mcp",
      "--method",
      "tools/list",
    ]);
  });

  it("hands a stdio command over as the Inspector's target; without a mode, the web UI", () => {
    expect(inspectorArgs({ command: ["node", "dist/main.js", "--stdio"] }, [])).toEqual([
      "--transport",
      "stdio",
      "node",
      "dist/main.js",
      "--stdio",
    ]);
  });
});
