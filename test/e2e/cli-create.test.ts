import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CliError } from "../../src/cli/cli-error.js";
import { createProject, dependencySpec, packageName } from "../../src/cli/create.command.js";
import { ownPackage } from "../../src/cli/package-info.js";
import { readProject } from "../../src/cli/project-config.js";

// `frugal-mcp create`: in process (the files, the options), then the compiled bin as a user
// runs it (`npm test` builds dist/ first). scripts/tarball-test.sh goes on from there: it
// installs the packed tarball into a scaffolded project, runs its tests, `npm run dev` and
// the Inspector against it.
const ROOT = resolve(import.meta.dirname, "../..");
const BIN = join(ROOT, "dist/cli/main.js");
const FILES = [
  ".gitignore",
  "README.md",
  "package.json",
  "src/app.module.ts",
  "src/main.ts",
  "src/tasks/tasks.service.ts",
  "src/tasks/tasks.store.ts",
  "test/tasks.test.ts",
  "tsconfig.build.json",
  "tsconfig.json",
  "vitest.config.ts",
];
const temp = mkdtempSync(join(tmpdir(), "frugal-cli-create-"));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

const quiet = () => {};
const read = (dir: string, file: string) => readFileSync(join(dir, file), "utf8");

describe("frugal-mcp create", () => {
  it("writes a project: module, paginated service, test, tsconfigs with decorator metadata, README", async () => {
    const lines: string[] = [];
    const { dir, files } = await createProject({
      dir: "My Server",
      cwd: temp,
      interactive: false,
      log: (line) => lines.push(line),
    });
    expect(dir).toBe(join(temp, "My Server"));
    expect([...files].sort()).toEqual(FILES);

    const pkg = JSON.parse(read(dir, "package.json"));
    expect(pkg).toMatchObject({
      name: "my-server",
      type: "module",
      private: true,
      scripts: { dev: "frugal-mcp dev", test: "tsc --noEmit && vitest run", inspect: "frugal-mcp inspect" },
      dependencies: { "frugal-mcp": `^${ownPackage().version}` },
    });
    expect(Object.keys(pkg.dependencies).sort()).toEqual(["frugal-mcp", "reflect-metadata", "zod"]);
    expect(Object.keys(pkg.devDependencies).sort()).toEqual(["@types/node", "typescript", "vitest"]);

    const tsconfig = JSON.parse(read(dir, "tsconfig.json"));
    expect(tsconfig.compilerOptions).toMatchObject({
      experimentalDecorators: true,
      emitDecoratorMetadata: true,
    });
    expect(read(dir, "src/tasks/tasks.service.ts")).toContain(
      '@Paginated("id", { limit: 10, maxLimit: 50 })',
    );
    expect(read(dir, "src/tasks/tasks.service.ts")).toContain(
      "constructor(private readonly store: TasksStore)",
    );
    expect(read(dir, "test/tasks.test.ts")).toContain(
      'import { createTestClient } from "frugal-mcp/testing";',
    );
    expect(read(dir, "src/main.ts")).toContain('name: "my-server"');
    const readme = read(dir, "README.md");
    expect(readme).toContain("npm run dev");
    expect(readme).toContain("npm test");

    // What to run next, with the folder quoted as a shell needs it; no install was asked for.
    expect(lines).toContain('  cd "My Server"');
    expect(lines).toContain("  npm install");
  });

  it("points frugal-mcp at a tarball for tests, as an absolute file: spec", () => {
    const pkg = ownPackage();
    writeFileSync(join(temp, "frugal-mcp-9.9.9.tgz"), "");
    expect(dependencySpec("frugal-mcp-9.9.9.tgz", pkg, temp)).toBe(
      `file:${join(temp, "frugal-mcp-9.9.9.tgz")}`,
    );
    expect(dependencySpec(undefined, pkg, temp)).toBe(`^${pkg.version}`);
    expect(dependencySpec("^0.2.0", pkg, temp)).toBe("^0.2.0");
    expect(dependencySpec("git+https://example.com/frugal-mcp.git", pkg, temp)).toBe(
      "git+https://example.com/frugal-mcp.git",
    );
    expect(() => dependencySpec("./missing.tgz", pkg, temp)).toThrow(CliError);
  });

  it("makes a valid npm name of any folder name", () => {
    expect(packageName("My Server")).toBe("my-server");
    expect(packageName(".hidden_thing")).toBe("hidden_thing");
    expect(packageName("日本")).toBe("mcp-server");
  });

  it("refuses a folder that is not empty, unless --force", async () => {
    const dir = join(temp, "taken");
    mkdirSync(dir);
    writeFileSync(join(dir, "notes.txt"), "mine");
    const options = { dir, cwd: temp, interactive: false, log: quiet };
    await expect(createProject(options)).rejects.toThrow(/taken is not empty: .*--force/);
    await createProject({ ...options, force: true });
    expect(read(dir, "notes.txt")).toBe("mine");
    expect(existsSync(join(dir, "src/main.ts"))).toBe(true);
  });

  it("scaffolds a project that type-checks against this build's declarations, and that dev can read", async () => {
    if (!existsSync(join(ROOT, "dist/index.d.ts")))
      throw new Error("dist/ is missing: run `npm run build` (npm test does it)");
    const { dir } = await createProject({ dir: "checked", cwd: temp, interactive: false, log: quiet });
    // The project's packages from the repository's node_modules; frugal-mcp's types from dist/,
    // as an install would give them (the declarations only: much faster than checking src/).
    symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
    const paths = {
      "frugal-mcp": [join(ROOT, "dist/index.d.ts")],
      "frugal-mcp/testing": [join(ROOT, "dist/testing/index.d.ts")],
      "frugal-mcp/testing/vitest": [join(ROOT, "dist/testing/vitest.d.ts")],
    };
    writeFileSync(
      join(dir, "tsconfig.check.json"),
      JSON.stringify({ extends: "./tsconfig.json", compilerOptions: { paths } }),
    );
    const tsc = join(ROOT, "node_modules/typescript/bin/tsc");
    const run = spawnSync(process.execPath, [tsc, "-p", "tsconfig.check.json"], {
      cwd: dir,
      encoding: "utf8",
    });
    expect(run.stdout + run.stderr).toBe("");
    expect(run.status).toBe(0);

    const project = readProject(dir);
    expect(project.configFile).toBe(join(dir, "tsconfig.build.json"));
    expect(project.outDir).toBe(join(dir, "dist"));
    expect(project.rootDirs[0]).toBe(join(dir, "src"));
    expect(project.watch).toEqual([
      { dir, recursive: false },
      { dir: join(dir, "src"), recursive: true },
    ]);
  }, 60_000);
});

describe("the frugal-mcp bin (dist/cli/main.js)", () => {
  const bin = (args: string[], cwd = temp) => {
    if (!existsSync(BIN))
      throw new Error("dist/cli/main.js is missing: run `npm run build` (npm test does it)");
    // No terminal on standard input: the command must ask nothing.
    return spawnSync(process.execPath, [BIN, ...args], {
      cwd,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
  };

  it("creates into a relative or an absolute folder without asking, and exits 0", () => {
    const relative = bin(["create", "from-bin"]);
    expect(relative.stderr).toBe("");
    expect(relative.status).toBe(0);
    expect(relative.stdout).toContain(`Created from-bin in ${join(temp, "from-bin")}`);
    const absolute = bin(["create", join(temp, "nested/absolute"), "--name", "abs"], ROOT);
    expect(absolute.status).toBe(0);
    for (const file of FILES) expect(existsSync(join(temp, "nested/absolute", file))).toBe(true);
    expect(JSON.parse(read(join(temp, "nested/absolute"), "package.json")).name).toBe("abs");
  });

  it("prints usage and its version; a wrong command exits 2", () => {
    expect(bin(["--help"]).stdout).toContain("Usage: frugal-mcp <command>");
    expect(bin(["--version"]).stdout.trim()).toBe(ownPackage().version);
    const wrong = bin(["creat", "x"]);
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toContain('unknown command "creat"');
    expect(bin(["create"]).status).toBe(2);
    const refused = bin(["create", "from-bin"]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toBe(
      "frugal-mcp: from-bin is not empty: pick a new folder, or pass --force to write into it\n",
    );
  });
});
