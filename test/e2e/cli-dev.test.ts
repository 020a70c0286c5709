import { type ChildProcess, spawn } from "node:child_process";
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
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, describe, expect, it } from "vitest";
import { createProject } from "../../src/cli/create.command.js";

// `frugal-mcp dev` on a scaffolded project, through the compiled bin (`npm test` builds dist/
// first): it compiles with the project's tsc, serves, restarts on a change, keeps the last good
// build through a type error, and stops its app on SIGTERM. frugal-mcp is this repository
// (linked, as dist/); scripts/tarball-test.sh does the same from the packed tarball.
const ROOT = resolve(import.meta.dirname, "../..");
const BIN = join(ROOT, "dist/cli/main.js");
const temp = mkdtempSync(join(tmpdir(), "frugal-cli-dev-"));
let dev: ChildProcess | undefined;

afterAll(() => {
  dev?.kill("SIGKILL");
  rmSync(temp, { recursive: true, force: true });
});

/** A scaffolded project whose node_modules links what `dev` needs from this repository. */
async function project(): Promise<string> {
  const { dir } = await createProject({ dir: "app", cwd: temp, interactive: false, log: () => {} });
  mkdirSync(join(dir, "node_modules"));
  symlinkSync(ROOT, join(dir, "node_modules/frugal-mcp"), "dir");
  for (const name of ["typescript", "reflect-metadata", "zod", "@types"])
    symlinkSync(join(ROOT, "node_modules", name), join(dir, "node_modules", name), "dir");
  return dir;
}

/** Tool descriptions by name, from a fresh client. */
async function tools(url: string): Promise<Record<string, string | undefined>> {
  const client = new Client({ name: "cli-dev-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  try {
    const { tools } = await client.listTools();
    return Object.fromEntries(tools.map((t) => [t.name, t.description]));
  } finally {
    await client.close();
  }
}

describe("frugal-mcp dev", () => {
  it("compiles with tsc, serves, restarts on change, survives a type error, stops on SIGTERM", async () => {
    if (!existsSync(BIN))
      throw new Error("dist/cli/main.js is missing: run `npm run build` (npm test does it)");
    const dir = await project();
    const child = spawn(process.execPath, [BIN, "dev"], {
      cwd: dir,
      env: { ...process.env, PORT: "0", FRUGAL_LOG_LEVEL: "info" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    dev = child;
    let output = "";
    const waiters: (() => void)[] = [];
    const collect = (chunk: Buffer) => {
      output += String(chunk);
      for (const wake of waiters.splice(0)) wake();
    };
    child.stdout?.on("data", collect);
    child.stderr?.on("data", collect);
    /** Waits for the n-th match of `pattern` in everything dev and its app printed. */
    const printed = async (pattern: RegExp, n = 1): Promise<string> => {
      const deadline = Date.now() + 40_000;
      for (;;) {
        const matches = [...output.matchAll(new RegExp(pattern, "g"))];
        if (matches.length >= n) return (matches[n - 1] as RegExpExecArray)[1] ?? "";
        if (Date.now() > deadline) throw new Error(`no ${pattern} (#${n}) in:\n${output}`);
        await new Promise<void>((wake) => {
          waiters.push(wake);
          setTimeout(wake, 500);
        });
      }
    };
    const listening = /listening on (http:\/\/\S+)/;

    const first = await printed(listening);
    expect(await tools(first)).toMatchObject({ add_task: "Add a task" });

    const service = join(dir, "src/tasks/tasks.service.ts");
    const source = readFileSync(service, "utf8");
    writeFileSync(service, source.replace('"Add a task"', '"Add a task to the list"'));
    const second = await printed(listening, 2);
    expect(await tools(second)).toMatchObject({ add_task: "Add a task to the list" });

    // A type error: tsc reports it, and the app from the last good build keeps serving.
    writeFileSync(service, source.replace("return this.store.add(title);", "return this.store.add(42);"));
    await printed(/(tsc found errors)/);
    expect(output).toContain("error TS2345");
    expect(await tools(second)).toMatchObject({ add_task: "Add a task to the list" });

    const exited = new Promise<number | null>((done) => child.once("exit", done));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    // The app went with it.
    await expect(tools(second)).rejects.toThrow();
  }, 90_000);
});
