import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const script = fileURLToPath(new URL("../../../scripts/check-architecture.mjs", import.meta.url));
const roots: string[] = [];

afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

/** Writes a src tree into a fresh temporary directory and runs the check on it from there. */
function check(files: Record<string, string>, ...args: string[]) {
  const root = mkdtempSync(join(tmpdir(), "check-architecture-"));
  roots.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, "src", path)), { recursive: true });
    writeFileSync(join(root, "src", path), text);
  }
  const run = spawnSync(process.execPath, [script, "src", ...args], { cwd: root, encoding: "utf8" });
  return { code: run.status, out: run.stdout, err: run.stderr };
}

/** A layered tree that follows every rule. */
const clean: Record<string, string> = {
  "index.ts": 'export * from "./runtime/app.js";\nexport * from "./cache/cache.js";\n',
  "tokens.ts":
    'import type { Bus } from "./events/bus.js";\nexport const BUS = Symbol("bus") as unknown as Bus;\n',
  "events/bus.ts": "export interface Bus {}\n",
  "metadata/store.ts": "export const store = {};\n",
  "pipeline/stage.ts": 'import { store } from "../metadata/store.js";\nexport const stage = store;\n',
  "pagination/page.ts": 'import { stage } from "../pipeline/stage.js";\nexport const page = stage;\n',
  "cache/cache.ts": 'import type { stage } from "../pipeline/stage.js";\nexport type Cache = typeof stage;\n',
  "runtime/app.ts": [
    'import { page } from "../pagination/page.js";',
    'import type { Cache } from "../cache/cache.js";',
    'import { BUS } from "../tokens.js";',
    "export const app = { page, BUS } as { page: unknown; cache?: Cache };",
  ].join("\n"),
};

describe("check-architecture", () => {
  it("passes a layered tree and prints the all-zero summary", () => {
    const { code, out, err } = check(clean);
    expect(err).toBe("");
    expect(out.trim()).toMatch(
      /^architecture: 0 folder cycles; 0 file cycles; 0 capability->capability imports; 0 kernel->capability imports; 0 standalone imports; 0 capability words in kernel code \(ceiling \d+\); 0 patches of SDK objects$/,
    );
    expect(code).toBe(0);
  });

  it("ignores src/index.ts as a source and as a target", () => {
    const { code } = check({
      ...clean,
      "pipeline/uses-index.ts": 'import { app } from "../index.js";\nexport const x = app;\n',
    });
    expect(code).toBe(0);
  });

  it("ignores imports that only appear in comments", () => {
    const { code } = check({
      ...clean,
      "pipeline/doc.ts": [
        "/**",
        ' * @example import { page } from "../pagination/page.js";',
        " */",
        '// const later = await import("../cache/cache.js");',
        'export const url = "http://example.com/x"; // a string with slashes stays a string',
      ].join("\n"),
    });
    expect(code).toBe(0);
  });

  it("fails on a cycle between folders and prints the imports that form it", () => {
    const { code, out } = check({
      ...clean,
      "events/emit.ts": 'import { app } from "../runtime/app.js";\nexport const emit = app;\n',
      "runtime/listen.ts": 'import type { Bus } from "../events/bus.js";\nexport type L = Bus;\n',
    });
    expect(code).toBe(1);
    expect(out).toContain("folder cycle: events <-> runtime");
    expect(out).toContain("src/events/emit.ts -> src/runtime/app.ts");
    expect(out).toContain("src/runtime/listen.ts -> src/events/bus.ts");
    expect(out).toContain("architecture: 1 folder cycles; 0 file cycles;");
  });

  it("counts a file directly in src/ as its own node", () => {
    const { code, out } = check({
      ...clean,
      "events/bus.ts":
        'import { BUS } from "../tokens.js";\nexport interface Bus {}\nexport const b = BUS;\n',
    });
    expect(code).toBe(1);
    expect(out).toContain("folder cycle: events <-> tokens");
    expect(out).toContain("file cycle: src/events/bus.ts -> src/tokens.ts -> src/events/bus.ts");
  });

  it("fails on a capability importing another capability, including side-effect and folder-index imports", () => {
    const { code, out } = check({
      ...clean,
      "cache/key.ts": 'import { page } from "../pagination/page.js";\nexport const key = page;\n',
      "budget/register.ts": 'import "../cache/key.js";\n',
      "ephemeral/index.ts": "export const spill = 1;\n",
      "budget/spill.ts": 'export { spill } from "../ephemeral";\n',
    });
    expect(code).toBe(1);
    expect(out).toContain("src/cache/key.ts -> src/pagination/page.ts");
    expect(out).toContain("src/budget/register.ts -> src/cache/key.ts");
    expect(out).toContain("src/budget/spill.ts -> src/ephemeral/index.ts");
    expect(out).toContain("3 capability->capability imports; 0 kernel->capability imports");
  });

  it("ignores imports written inside template literals (generated code)", () => {
    const { code, err } = check({
      ...clean,
      "cli/files.ts": 'export const main = `import { app } from "../runtime/app.js";\nimport "./x.js";\n`;\n',
    });
    expect(err).toBe("");
    expect(code).toBe(0);
  });

  it("fails on an import into or out of the standalone cli folder", () => {
    const { code, out } = check({
      ...clean,
      "cli/main.ts": 'import { app } from "../runtime/app.js";\nexport const main = app;\n',
      "pipeline/cli.ts": 'import type { main } from "../cli/main.js";\nexport type M = typeof main;\n',
    });
    expect(code).toBe(1);
    expect(out).toContain("standalone (cli -> runtime): src/cli/main.ts -> src/runtime/app.ts");
    expect(out).toContain("standalone (pipeline -> cli): src/pipeline/cli.ts -> src/cli/main.ts");
    expect(out).toContain("2 standalone imports");
  });

  it("fails on a kernel folder importing a capability, even through a dynamic import", () => {
    const { code, out } = check({
      ...clean,
      "builder/build.ts":
        'export async function load() {\n  return (await import("../cache/cache.js")).x;\n}\n',
      "decorators/paginated.ts":
        'import type { page } from "../pagination/page.js";\nexport type P = typeof page;\n',
    });
    expect(code).toBe(1);
    expect(out).toContain(
      "kernel -> capability (builder -> cache): src/builder/build.ts -> src/cache/cache.ts",
    );
    expect(out).toContain("src/decorators/paginated.ts -> src/pagination/page.ts");
    expect(out).toContain("0 capability->capability imports; 2 kernel->capability imports");
  });

  it("fails on a file cycle made of type-only imports inside one folder", () => {
    const { code, out } = check({
      ...clean,
      "runtime/a.ts": 'import type { B } from "./b.js";\nexport interface A { b: B }\n',
      "runtime/b.ts": 'import type { C } from "./c.js";\nexport interface B { c: C }\n',
      "runtime/c.ts": 'import type { A } from "./a.js";\nexport interface C { a: A }\n',
    });
    expect(code).toBe(1);
    expect(out).toContain(
      "file cycle: src/runtime/a.ts -> src/runtime/b.ts -> src/runtime/c.ts -> src/runtime/a.ts",
    );
    expect(out).toContain("architecture: 0 folder cycles; 1 file cycles;");
  });

  it("reports a file importing itself", () => {
    const { code, out } = check({ ...clean, "runtime/self.ts": 'export * from "./self.js";\n' });
    expect(code).toBe(1);
    expect(out).toContain("file cycle: src/runtime/self.ts -> src/runtime/self.ts");
  });

  it("fails when kernel code names capabilities more often than the ceiling, comments aside", () => {
    const kernel = {
      ...clean,
      "pipeline/operation.ts": [
        "// pagination cache budget spill: comments are not counted",
        'export interface Operation { pagination: unknown; cacheHit: boolean; decorator: "@Budget" }',
      ].join("\n"),
    };
    const within = check(kernel, "--kernel-word-ceiling=3");
    expect(within.out).toContain("3 capability words in kernel code (ceiling 3)");
    expect(within.code).toBe(0);
    const over = check(kernel, "--kernel-word-ceiling=2");
    expect(over.out).toContain("kernel names capabilities 3 times in code, over the ceiling of 2");
    expect(over.out).toContain("src/pipeline/operation.ts: 3");
    expect(over.code).toBe(1);
  });

  it("fails when code replaces a method of an SDK object, and passes a wrapper and the SDK's callbacks", () => {
    const patched = check({
      ...clean,
      "transports/track.ts": [
        "export function track(transport: { send(m: unknown): Promise<void> }) {",
        "  const send = transport.send.bind(transport);",
        "  transport.send = (m) => send(m);",
        "}",
        "export function screen(t: { onmessage?: (m: unknown) => void }) {",
        "  t.onmessage = () => {};",
        "}",
        "export function hook(S: { prototype: { connect?: unknown } }) {",
        "  S.prototype.connect = undefined;",
        "}",
      ].join("\n"),
    });
    expect(patched.code).toBe(1);
    expect(patched.out).toContain("src/transports/track.ts:3: transport.send = (m) => send(m);");
    expect(patched.out).toContain("src/transports/track.ts:6: t.onmessage = () => {};");
    expect(patched.out).toContain("src/transports/track.ts:9: S.prototype.connect = undefined;");
    expect(patched.out).toContain("3 patches of SDK objects");
    const composed = check({
      ...clean,
      "transports/wrapped-transport.ts":
        "export function wrap(inner: any) {\n  inner.onmessage = () => {};\n}\n",
      "transports/close.ts": [
        "// transport.send = never, in a comment",
        "export function watch(server: any, transport: any) {",
        "  server.onclose = () => {};",
        "  transport.onclose = () => {};",
        "  return transport.send === undefined;",
        "}",
      ].join("\n"),
    });
    expect(composed.out).toContain("0 patches of SDK objects");
    expect(composed.code).toBe(0);
  });

  it("prints a machine-readable report with --json", () => {
    const { code, out } = check(
      { ...clean, "cache/key.ts": 'import { page } from "../pagination/page.js";\nexport const k = page;\n' },
      "--json",
    );
    expect(code).toBe(1);
    const report = JSON.parse(out);
    expect(report.ok).toBe(false);
    expect(report.capabilityImports).toEqual([
      { from: "src/cache/key.ts", to: "src/pagination/page.ts", fromFolder: "cache", toFolder: "pagination" },
    ]);
    expect(report.folderCycles).toEqual([]);
    expect(report.fileCycles).toEqual([]);
    expect(report.kernelImports).toEqual([]);
  });

  it("warns about an import it cannot resolve without failing on it", () => {
    const { code, err } = check({ ...clean, "runtime/lost.ts": 'export * from "./missing.js";\n' });
    expect(code).toBe(0);
    expect(err).toContain("unresolved import src/runtime/lost.ts: ./missing.js");
  });

  it("exits 2 when the directory does not exist", () => {
    const run = spawnSync(process.execPath, [script, join(tmpdir(), "no-such-src-dir-for-check")], {
      encoding: "utf8",
    });
    expect(run.status).toBe(2);
  });
});
