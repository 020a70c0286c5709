import { type ChildProcess, spawn } from "node:child_process";
import { type FSWatcher, watch } from "node:fs";
import { createRequire } from "node:module";
import { join, relative, resolve, sep } from "node:path";
import { CliError } from "./cli-error.js";
import { runToEnd, stopProcess } from "./processes.js";
import { outputOf, readProject, type TsProject } from "./project-config.js";

/** Options of `frugal-mcp dev`. */
interface DevOptions {
  /** The source file that starts the app (`src/main.ts` by default). */
  readonly entry: string;
  /** The tsconfig to compile (`tsconfig.build.json`, else `tsconfig.json`). */
  readonly project?: string | undefined;
  /** Run the sources through `frugal-mcp/register` (SWC) under `node --watch` instead of tsc. */
  readonly swc?: boolean | undefined;
  /** Arguments for the app (after `--`). */
  readonly args: readonly string[];
  readonly cwd: string;
  /** Where the loop's own lines go (the app's output goes to the terminal as it is). */
  readonly log: (line: string) => void;
}

/** Source and config files whose change means a rebuild. */
const SOURCE = /\.(?:[cm]?tsx?|json)$/;
const NOT_SOURCE = /(?:^|[\\/])(?:package-lock\.json|node_modules[\\/].*)$/;

/**
 * `frugal-mcp dev`: compiles the project with its own `tsc` (so decorator metadata is exactly
 * the compiler's), starts the compiled entry, and on every change to a source or tsconfig
 * compiles again and restarts it. A build with errors leaves the running app as it was.
 * Resolves to the exit code when stopped (SIGINT, SIGTERM).
 *
 * Changes are watched with `fs.watch`, not `tsc --watch`: each build is one `tsc -p` run
 * whose exit code says whether it succeeded, and TypeScript 7's watcher was seen to miss
 * changes on some machines.
 *
 * @example
 * ```ts
 * process.exitCode = await dev({ entry: "src/main.ts", args: [], cwd: process.cwd(), log: console.error });
 * ```
 */
export async function dev(options: DevOptions): Promise<number> {
  if (options.swc) return devWithSwc(options);
  const { cwd, log } = options;
  const project = readProject(cwd, options.project);
  const shown = (path: string) => relative(cwd, path) || ".";
  let server: ChildProcess | undefined;
  let building: Promise<void> | undefined;
  let again = false;
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;

  const startServer = async (): Promise<void> => {
    const output = outputOf(project, options.entry, cwd);
    if (output === undefined) {
      log(`tsc wrote no ${options.entry} under ${shown(project.outDir)}: is it in the project's sources?`);
      return;
    }
    const previous = server;
    server = undefined; // its exit is a restart, not news
    if (previous) await stopProcess(previous);
    if (stopping) return;
    log(`starting node ${shown(output)} ${options.args.join(" ")}`.trimEnd());
    const child = spawn(process.execPath, ["--enable-source-maps", output, ...options.args], {
      cwd,
      stdio: "inherit",
    });
    server = child;
    child.once("exit", (code, signal) => {
      if (server === child && !stopping)
        log(`the app exited (${signal ?? `code ${code}`}); waiting for a change`);
    });
  };

  const build = async (): Promise<void> => {
    do {
      again = false;
      const started = performance.now();
      const code = await runToEnd(process.execPath, [project.tsc, "-p", project.configFile], {
        cwd,
        shell: false,
      });
      if (stopping) return;
      const took = `${((performance.now() - started) / 1000).toFixed(1)} s`;
      if (code === 0) {
        log(`compiled ${shown(project.configFile)} in ${took}`);
        if (!again) await startServer();
      } else {
        log(
          `tsc found errors (${took}): ${server ? "the app keeps running the last good build" : "fix them to start the app"}`,
        );
      }
    } while (again && !stopping);
  };

  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (building) {
        again = true;
        return;
      }
      building = build().finally(() => {
        building = undefined;
      });
    }, 100);
  };

  const watchers = watchSources(project, (file) => {
    if (!stopping && SOURCE.test(file) && !NOT_SOURCE.test(file)) schedule();
  });
  const folders = project.watch.filter((w) => w.recursive).map((w) => `${shown(w.dir)}${sep}`);
  log(
    `compiles with ${shown(project.configFile)} (tsc), runs ${options.entry} from ${shown(project.outDir)}, ` +
      `restarts on changes in ${[...folders, "the tsconfig files"].join(", ")}`,
  );
  building = build().finally(() => {
    building = undefined;
  });

  return new Promise((done) => {
    const stop = async () => {
      if (stopping) return;
      stopping = true;
      clearTimeout(timer);
      for (const watcher of watchers) watcher.close();
      if (server) await stopProcess(server);
      done(0);
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
}

/** Watches the project's source folders; `changed` gets each changed file's absolute path. */
function watchSources(project: TsProject, changed: (file: string) => void): FSWatcher[] {
  return project.watch.map(({ dir, recursive }) =>
    watch(dir, { recursive }, (_event, name) => {
      const file = resolve(dir, name ?? "");
      if (!file.startsWith(project.outDir + sep)) changed(file);
    }),
  );
}

/**
 * `frugal-mcp dev --swc`: `node --watch --import frugal-mcp/register <entry>`: no build step
 * and no type check; SWC (an optional peer dependency) transpiles each file with decorator
 * metadata as Node loads it, and Node restarts on a change to any file the app loaded.
 */
async function devWithSwc(options: DevOptions): Promise<number> {
  const { cwd, log } = options;
  try {
    createRequire(join(cwd, "package.json")).resolve("@swc/core");
  } catch {
    throw new CliError(
      "dev --swc needs SWC: `npm install --save-dev @swc/core` (or drop --swc to compile with tsc)",
    );
  }
  const register = import.meta.resolve("frugal-mcp/register");
  log(`runs ${options.entry} under node --watch with frugal-mcp/register (SWC; no type check)`);
  const child = spawn(process.execPath, ["--watch", "--import", register, options.entry, ...options.args], {
    cwd,
    stdio: "inherit",
  });
  return new Promise((done) => {
    let stopping = false;
    const stop = () => {
      stopping = true;
      void stopProcess(child).then(() => done(0));
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
    child.once("exit", (code) => {
      if (!stopping) done(code ?? 1);
    });
  });
}
