import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CliError } from "../../../src/cli/cli-error.js";
import { createProject, dependencySpec, packageName } from "../../../src/cli/create.command.js";
import type { PackageInfo } from "../../../src/cli/package-info.js";

const cwd = mkdtempSync(join(tmpdir(), "frugal-create-"));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));
const pkg: PackageInfo = { root: "/", version: "0.9.0", versions: {} };

describe("createProject", () => {
  it("writes the project into a new folder, named after it, and says what to do next", async () => {
    const lines: string[] = [];
    const created = await createProject({
      dir: "My Server",
      cwd,
      interactive: false,
      install: false,
      log: (l) => void lines.push(l),
      pkg,
    });
    expect(created.dir).toBe(join(cwd, "My Server"));
    expect(JSON.parse(readFileSync(join(created.dir, "package.json"), "utf8"))).toMatchObject({
      name: "my-server",
      dependencies: { "frugal-mcp": "^0.9.0" },
    });
    expect(readdirSync(join(created.dir, "src", "tasks")).sort()).toEqual([
      "tasks.service.ts",
      "tasks.store.ts",
    ]);
    expect(lines[0]).toBe(`Created my-server in ${created.dir} (frugal-mcp 0.9.0):`);
    expect(lines).toContain('  cd "My Server"');
    expect(lines).toContain("  npm install");
  });

  it("refuses a folder that is not empty unless forced, and a path that is a file", async () => {
    const taken = join(cwd, "taken");
    mkdirSync(taken);
    writeFileSync(join(taken, "notes.txt"), "mine");
    const options = { cwd, interactive: false, install: false, log: () => {}, pkg };
    await expect(createProject({ ...options, dir: "taken" })).rejects.toThrow(
      new CliError("taken is not empty: pick a new folder, or pass --force to write into it"),
    );
    await createProject({ ...options, dir: "taken", force: true, name: "forced" });
    expect(readFileSync(join(taken, "notes.txt"), "utf8")).toBe("mine");
    writeFileSync(join(cwd, "a-file"), "x");
    await expect(createProject({ ...options, dir: "a-file" })).rejects.toThrow(
      "a-file exists and is not a folder",
    );
  });
});

describe("packageName", () => {
  it("makes a valid npm name from a folder name", () => {
    expect(packageName("My Server")).toBe("my-server");
    expect(packageName("__Weird!!Name--")).toBe("weird-name");
    expect(packageName("...")).toBe("mcp-server");
    expect(packageName("a".repeat(300))).toHaveLength(214);
  });
});

describe("dependencySpec", () => {
  it("is a caret range of this version, a file: path for a tarball, or the spec as given", () => {
    expect(dependencySpec(undefined, pkg, cwd)).toBe("^0.9.0");
    writeFileSync(join(cwd, "frugal-mcp-0.9.0.tgz"), "");
    expect(dependencySpec("./frugal-mcp-0.9.0.tgz", pkg, cwd)).toBe(
      `file:${join(cwd, "frugal-mcp-0.9.0.tgz")}`,
    );
    expect(dependencySpec("next", pkg, cwd)).toBe("next");
    expect(dependencySpec("file:../x", pkg, cwd)).toBe("file:../x");
    expect(() => dependencySpec("./missing.tgz", pkg, cwd)).toThrow(/--from \.\/missing\.tgz: no such file/);
  });
});
