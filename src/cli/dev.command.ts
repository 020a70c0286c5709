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
  return new DevLoop(readProject(options.cwd, options.project), options).run();
}

/**
 * The compile-and-restart loop of `dev`: one build at a time; changes made while one runs
 * ask for one more, and only the last good build of a burst starts the app.
 */
class DevLoop {
  private server: ChildProcess | undefined;
  private building: Promise<void> | undefined;
  private again = false;
  private stopping = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly project: TsProject,
    private readonly options: DevOptions,
  ) {}

  /** Watches, builds and serves until SIGINT or SIGTERM; resolves to the exit code. */
  run(): Promise<number> {
    const { project, options } = this;
    const watchers = watchSources(project, (file) => {
      if (!this.stopping && SOURCE.test(file) && !NOT_SOURCE.test(file)) this.schedule();
    });
    const folders = project.watch.filter((w) => w.recursive).map((w) => `${this.shown(w.dir)}${sep}`);
    options.log(
      `compiles with ${this.shown(project.configFile)} (tsc), runs ${options.entry} from ${this.shown(project.outDir)}, ` +
        `restarts on changes in ${[...folders, "the tsconfig files"].join(", ")}`,
    );
    this.startBuild();
    return new Promise((done) => {
      const stop = async () => {
        if (this.stopping) return;
        this.stopping = true;
        clearTimeout(this.timer);
        for (const watcher of watchers) watcher.close();
        if (this.server) await stopProcess(this.server);
        done(0);
      };
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
    });
  }

  /** Builds after 100 ms without changes: one save often touches several files. */
  private schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      if (this.building) {
        this.again = true;
        return;
      }
      this.startBuild();
    }, 100);
  }

  private startBuild(): void {
    this.building = this.build().finally(() => {
      this.building = undefined;
    });
  }

  private async build(): Promise<void> {
    const { project, options } = this;
    do {
      this.again = false;
      const started = performance.now();
      const code = await runToEnd(process.execPath, [project.tsc, "-p", project.configFile], {
        cwd: options.cwd,
        shell: false,
      });
      if (this.stopping) return;
      const took = `${((performance.now() - started) / 1000).toFixed(1)} s`;
      if (code === 0) {
        options.log(`compiled ${this.shown(project.configFile)} in ${took}`);
        // A change arrived during the build: this output is already stale.
        if (!this.again) await this.startServer();
      } else {
        options.log(
          `tsc found errors (${took}): ${this.server ? "the app keeps running the last good build" : "fix them to start the app"}`,
        );
      }
    } while (this.again && !this.stopping);
  }

  /** Stops the running app, if any, and starts the compiled entry. */
  private async startServer(): Promise<void> {
    const { project, options } = this;
    const output = outputOf(project, options.entry, options.cwd);
    if (output === undefined) {
      options.log(
        `tsc wrote no ${options.entry} under ${this.shown(project.outDir)}: is it in the project's sources?`,
      );
      return;
    }
    const previous = this.server;
    this.server = undefined; // its exit is a restart, not news
    if (previous) await stopProcess(previous);
    if (this.stopping) return;
    options.log(`starting node ${this.shown(output)} ${options.args.join(" ")}`.trimEnd());
    const child = spawn(process.execPath, ["--enable-source-maps", output, ...options.args], {
      cwd: options.cwd,
      stdio: "inherit",
    });
    this.server = child;
    child.once("exit", (code, signal) => {
      if (this.server === child && !this.stopping)
        options.log(`the app exited (${signal ?? `code ${code}`}); waiting for a change`);
    });
  }

  private shown(path: string): string {
    return relative(this.options.cwd, path) || ".";
  }
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
