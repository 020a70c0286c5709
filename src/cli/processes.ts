import { type ChildProcess, type SpawnOptions, spawn } from "node:child_process";

// npm and npx are .cmd scripts on Windows, which only a shell starts.
const shell = process.platform === "win32";

/**
 * Runs a command with the terminal as its input and output, and resolves to its exit code
 * (1 when it could not start, or died of a signal).
 *
 * @example
 * ```ts
 * const code = await runToEnd("npm", ["install"], { cwd: "demo" });
 * ```
 */
export function runToEnd(
  command: string,
  args: readonly string[],
  options: SpawnOptions = {},
): Promise<number> {
  return new Promise((done) => {
    const child = spawn(command, args, { stdio: "inherit", shell, ...options });
    child.once("error", (error) => {
      process.stderr.write(`frugal-mcp: could not start ${command}: ${error.message}\n`);
      done(1);
    });
    child.once("exit", (code) => done(code ?? 1));
  });
}

/**
 * Stops a child process: SIGTERM (a frugal-mcp app then drains and closes), SIGKILL after
 * `graceMs`. Resolves once it has exited.
 *
 * @example
 * ```ts
 * await stopProcess(server);
 * ```
 */
export function stopProcess(child: ChildProcess, graceMs = 5_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
    child.once("exit", () => {
      clearTimeout(timer);
      done();
    });
    child.kill("SIGTERM");
  });
}
