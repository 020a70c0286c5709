import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";

/**
 * A redis-server of a test's own, on a free port, that the test may stall (SIGSTOP), kill
 * and restart. Fault tests use it and never touch the shared Redis on 6379.
 *
 * @example
 * ```ts
 * const redis = await OwnRedis.start();
 * redis.pause(); … redis.resume();
 * await redis.restart();
 * await redis.stop();
 * ```
 */
export class OwnRedis {
  private child: ChildProcess | undefined;
  private paused = false;
  readonly url: string;

  private constructor(
    readonly port: number,
    private readonly args: string[],
    private readonly dir: string | undefined,
  ) {
    this.url = `redis://127.0.0.1:${port}`;
  }

  /** `persistent`: an append-only file in a temporary folder, so a restart keeps the data. */
  static async start(options: { persistent?: boolean } = {}): Promise<OwnRedis> {
    const port = await freePort();
    const args = ["--port", String(port), "--bind", "127.0.0.1", "--save", ""];
    const dir = options.persistent ? mkdtempSync(join(tmpdir(), "frugal-own-redis-")) : undefined;
    if (dir) args.push("--appendonly", "yes", "--appendfsync", "always", "--dir", dir);
    else args.push("--appendonly", "no");
    const server = new OwnRedis(port, args, dir);
    await server.launch();
    return server;
  }

  /** Hangs the server: connections stay open, nothing answers. */
  pause(): void {
    this.child?.kill("SIGSTOP");
    this.paused = true;
  }

  resume(): void {
    this.child?.kill("SIGCONT");
    this.paused = false;
  }

  /** Kills it (SIGKILL) and waits for the process to exit. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    if (this.paused) this.resume();
    child.kill("SIGKILL");
    await exited;
  }

  /** Starts it again on the same port. */
  async restart(): Promise<void> {
    await this.kill();
    await this.launch();
  }

  /** Kills it for good and removes its folder. */
  async stop(): Promise<void> {
    await this.kill();
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
  }

  private async launch(): Promise<void> {
    const child = spawn("redis-server", this.args, { stdio: "ignore" });
    child.on("error", () => {}); // a failed start shows as the PING loop below timing out
    this.child = child;
    const kill = () => child.kill("SIGKILL");
    process.once("exit", kill);
    child.once("exit", () => process.off("exit", kill));
    // The server is another process: poll until it answers a PING.
    const deadline = Date.now() + 5_000;
    for (;;) {
      try {
        await ping(this.url);
        return;
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  }
}

/** Whether `redis-server` can be run; under `CI=true` a missing one is a failure, not a skip. */
export function redisServerInstalled(): boolean {
  if (spawnSync("redis-server", ["--version"]).status === 0) return true;
  if (process.env.CI === "true") throw new Error("redis-server is required under CI=true but was not found");
  console.warn("skipping: redis-server was not found");
  return false;
}

/** Resolves once a Redis at `url` answers a PING; rejects (at once) while nothing listens. */
export async function ping(url: string): Promise<void> {
  const client = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  client.on("error", () => {});
  try {
    await client.connect();
    await client.ping();
  } finally {
    client.disconnect();
  }
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
