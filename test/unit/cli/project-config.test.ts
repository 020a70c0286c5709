import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CliError } from "../../../src/cli/cli-error.js";
import { outputOf, readProject } from "../../../src/cli/project-config.js";

const repository = join(import.meta.dirname, "..", "..", "..");
const root = mkdtempSync(join(tmpdir(), "frugal-project-config-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A project folder with these files, and the repository's TypeScript installed in it. */
function project(name: string, files: Record<string, string>, withTypescript = true): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  writeFileSync(join(dir, "package.json"), '{"type":"module"}');
  if (withTypescript) {
    mkdirSync(join(dir, "node_modules"), { recursive: true });
    symlinkSync(join(repository, "node_modules", "typescript"), join(dir, "node_modules", "typescript"));
  }
  return dir;
}

describe("readProject", () => {
  it("reads tsconfig.build.json when there is one: its outDir, the folders to watch, and where sources map", () => {
    const dir = project("built", {
      "tsconfig.json": JSON.stringify({
        compilerOptions: { noEmit: true, strict: true },
        include: ["src", "test"],
      }),
      "tsconfig.build.json": JSON.stringify({
        extends: "./tsconfig.json",
        compilerOptions: { noEmit: false, rootDir: "src", outDir: "dist" },
        include: ["src"],
      }),
      "src/main.ts": "export const x = 1;\n",
      "src/tasks/store.ts": "export const y = 2;\n",
    });
    const found = readProject(dir);
    expect(found.configFile).toBe(join(dir, "tsconfig.build.json"));
    expect(found.outDir).toBe(join(dir, "dist"));
    expect(found.watch).toEqual([
      { dir, recursive: false },
      { dir: join(dir, "src"), recursive: true },
    ]);
    expect(found.rootDirs[0]).toBe(join(dir, "src"));
    // The output of an entry is found once tsc has written it.
    expect(outputOf(found, "src/main.ts", dir)).toBeUndefined();
    mkdirSync(join(dir, "dist"), { recursive: true });
    writeFileSync(join(dir, "dist", "main.js"), "");
    expect(outputOf(found, "src/main.ts", dir)).toBe(join(dir, "dist", "main.js"));
    expect(outputOf(found, "../elsewhere/main.ts", dir)).toBeUndefined();
  });

  it("refuses a config that writes nothing, saying why", () => {
    const dir = project("no-emit", {
      "tsconfig.json": JSON.stringify({ compilerOptions: { noEmit: true }, include: ["src"] }),
      "src/main.ts": "export {};\n",
    });
    expect(() => readProject(dir)).toThrow(
      new CliError(
        "tsconfig.json must write JavaScript to an outDir (and not set noEmit): frugal-mcp runs what tsc writes",
      ),
    );
  });

  it("says what is missing: the config file, or TypeScript itself", () => {
    const empty = project("empty", {});
    expect(() => readProject(empty)).toThrow(`no tsconfig.json in ${empty}`);
    expect(() => readProject(empty, "custom.json")).toThrow(`no custom.json in ${empty}`);
    const bare = project("bare", { "tsconfig.json": "{}" }, false);
    expect(() => readProject(bare)).toThrow(
      `no TypeScript in ${bare}: install it with \`npm install --save-dev typescript\``,
    );
  });
});
