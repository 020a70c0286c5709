import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { ping } from "./own-redis.js";

/**
 * A Redis Cluster of a test's own: three masters (no replicas) on free loopback ports,
 * each in a temporary folder, joined with `redis-cli --cluster create`; `stop()` kills
 * them and removes the folder. Needs `redis-server` and `redis-cli` (check with
 * `redisServerInstalled()` from own-redis.ts first).
 *
 * @example
 * ```ts
 * const cluster = await OwnRedisCluster.start();
 * new RedisStorage({ cluster: cluster.nodes });
 * await cluster.stop();
 * ```
 */
export class OwnRedisCluster {
  private constructor(
    readonly nodes: ReadonlyArray<{ host: string; port: number }>,
    private readonly children: ChildProcess[],
    private readonly dir: string,
  ) {}

  static async start(size = 3): Promise<OwnRedisCluster> {
    const dir = mkdtempSync(join(tmpdir(), "frugal-redis-cluster-"));
    const ports: number[] = [];
    while (ports.length < size) {
      const port = await clusterPort();
      if (!ports.includes(port)) ports.push(port);
    }
    const children = ports.map((port) => {
      const child = spawn(
        "redis-server",
        [
          "--port",
          String(port),
          "--bind",
          "127.0.0.1",
          "--cluster-enabled",
          "yes",
          "--cluster-config-file",
          `nodes-${port}.conf`,
          "--cluster-node-timeout",
          "2000",
          "--dir",
          dir,
          "--save",
          "",
          "--appendonly",
          "no",
        ],
        { stdio: "ignore" },
      );
      child.on("error", () => {});
      const kill = () => child.kill("SIGKILL");
      process.once("exit", kill);
      child.once("exit", () => process.off("exit", kill));
      return child;
    });
    const cluster = new OwnRedisCluster(
      ports.map((port) => ({ host: "127.0.0.1", port })),
      children,
      dir,
    );
    try {
      for (const port of ports) await untilAnswers(`redis://127.0.0.1:${port}`);
      await run("redis-cli", [
        "--cluster",
        "create",
        ...ports.map((port) => `127.0.0.1:${port}`),
        "--cluster-replicas",
        "0",
        "--cluster-yes",
      ]);
      for (const port of ports) await untilClusterOk(port);
    } catch (error) {
      await cluster.stop();
      throw error;
    }
    return cluster;
  }

  /** How many keys each node holds (to see that keys really spread over the nodes). */
  async keysPerNode(): Promise<number[]> {
    return Promise.all(
      this.nodes.map(async ({ port }) => {
        const client = new Redis(port, "127.0.0.1", { lazyConnect: true });
        try {
          await client.connect();
          return await client.dbsize();
        } finally {
          client.disconnect();
        }
      }),
    );
  }

  async stop(): Promise<void> {
    await Promise.all(
      this.children.map((child) => {
        if (child.exitCode !== null || child.signalCode !== null) return undefined;
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGKILL");
        return exited;
      }),
    );
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A free port whose cluster bus port (port + 10,000) is free too. */
async function clusterPort(): Promise<number> {
  for (;;) {
    const port = await freePort(0);
    if (port < 55_000 && (await freePort(port + 10_000).catch(() => 0)) !== 0) return port;
  }
}

async function freePort(port: number): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  const bound = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return bound;
}

/** Another process starting: polled until it answers (it cannot tell us when it is up). */
async function untilAnswers(url: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      await ping(url);
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

/** Polls `CLUSTER INFO` until the node sees every slot covered. */
async function untilClusterOk(port: number): Promise<void> {
  const client = new Redis(port, "127.0.0.1", { lazyConnect: true, maxRetriesPerRequest: 0 });
  client.on("error", () => {});
  const deadline = Date.now() + 15_000;
  try {
    await client.connect();
    for (;;) {
      const info = String(await client.call("CLUSTER", "INFO"));
      if (/cluster_state:ok/.test(info)) return;
      if (Date.now() > deadline) throw new Error(`node ${port} never reached cluster_state:ok:\n${info}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    client.disconnect();
  }
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr?.on("data", (chunk) => {
      stderr += String(chunk);
    });
    child.once("error", reject);
    child.once("exit", (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`${command} ${args.join(" ")} exited with ${code}: ${stderr}`)),
    );
  });
}
