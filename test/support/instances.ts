/**
 * Several app instances on loopback ports sharing one Redis (storage, cache and event bus
 * under one random prefix), as replicas behind a load balancer would, and a client that
 * sends each request to the next instance (round robin, no stickiness).
 *
 * Streamable HTTP sessions live in one instance's memory, so with sessions the client
 * holds one session per instance, all under the same principal (a bearer token the
 * instances' auth middleware turns into `req.auth`), and picks the next session for each
 * call: the owner is the principal, so everything owner-scoped is shared. With
 * `stateless: true` (when the HTTP handler serves requests without sessions), or with
 * `sharedSessions: true` (a `RedisSessionStore` as `SESSION_STORE`: any instance serves any
 * request of any session), the client is one SDK client whose every HTTP request goes to
 * the next instance.
 *
 * @example
 * ```ts
 * const cluster = await Instances.start(AppModule, { count: 3, prefix: randomPrefix("x") });
 * const client = await cluster.connect("alice");
 * await client.next().callTool({ name: "list", arguments: {} });
 * await cluster.close();
 * ```
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import type { ClientCapabilities } from "@modelcontextprotocol/sdk/types.js";
import {
  CACHE,
  EVENT_BUS,
  type HttpHandlerOptions,
  type McpApp,
  type McpAppOptions,
  McpFactory,
  RedisCache,
  RedisEventBus,
  RedisEventStore,
  RedisSessionStore,
  RedisStorage,
  SESSION_STORE,
  STORAGE,
} from "frugal-mcp";
import { REDIS_URL } from "./services.js";

/** Options of `Instances.start`. */
export interface InstancesOptions {
  /** How many instances (default 3). */
  count?: number;
  /** The Redis key prefix (and event channel) all instances share: one per test file. */
  prefix: string;
  /** Redis URL (default `REDIS_URL`). */
  redisUrl?: string;
  /** Serve HTTP without sessions (the handler's `stateless` option). */
  stateless?: boolean;
  /** App options of every instance (a shared `cursorSecret` is given by default). */
  appOptions?: Partial<McpAppOptions>;
  /** Share 2025-11-25 sessions through a `RedisSessionStore`: one client, every request to the next instance. */
  sharedSessions?: boolean;
  /** Options of every instance's HTTP handler. */
  httpOptions?: HttpHandlerOptions;
  /** Give each instance a `RedisEventStore` (one store under the shared prefix): streams resume on any instance. */
  sharedEventStore?: boolean;
}

/** The cursor secret every instance shares (as one configuration would give them). */
export const SHARED_CURSOR_SECRET = "multi-instance-test-secret-0123456789";

interface Running {
  app: McpApp;
  server: Server;
  url: string;
  /** HTTP requests this instance received (each method counted apart; `GET resume`: with Last-Event-ID). */
  requests: Record<string, number>;
}

/** N app instances sharing one Redis; see the file's comment. */
export class Instances {
  private readonly running: Running[] = [];
  private readonly clients: RoundRobinClient[] = [];

  private constructor(
    private readonly module: Function,
    private readonly options: InstancesOptions,
  ) {}

  static async start(module: Function, options: InstancesOptions): Promise<Instances> {
    const instances = new Instances(module, options);
    for (let i = 0; i < (options.count ?? 3); i++) instances.running.push(await instances.launch(0));
    return instances;
  }

  get count(): number {
    return this.running.length;
  }

  /** The endpoint URL of instance `i`. */
  url(i: number): string {
    return this.at(i).url;
  }

  /** HTTP requests instance `i` received, by method. */
  requests(i: number): Record<string, number> {
    return this.at(i).requests;
  }

  /** The app of instance `i` (for its stats). */
  app(i: number): McpApp {
    return this.at(i).app;
  }

  /** Stops instance `i` (its app and its listener), then starts a new one on the same port. */
  async restart(i: number): Promise<void> {
    const old = this.at(i);
    await stop(old);
    this.running[i] = await this.launch(Number(new URL(old.url).port));
  }

  /**
   * A round-robin client for the principal `principal` (its bearer token is
   * `token-<principal>`, and its auth info names it as the client id).
   */
  async connect(principal: string, capabilities: ClientCapabilities = {}): Promise<RoundRobinClient> {
    const oneClient = this.options.stateless === true || this.options.sharedSessions === true;
    const client = new RoundRobinClient(this, `token-${principal}`, oneClient, capabilities);
    await client.open();
    this.clients.push(client);
    return client;
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.clients.splice(0).map((client) => client.close()));
    await Promise.allSettled(this.running.splice(0).map(stop));
  }

  private at(i: number): Running {
    const running = this.running[i];
    if (!running) throw new Error(`there is no instance ${i} (there are ${this.running.length})`);
    return running;
  }

  private async launch(port: number): Promise<Running> {
    const { prefix } = this.options;
    const url = this.options.redisUrl ?? REDIS_URL;
    // Each instance has its own connections, as a process of its own would.
    const app = await McpFactory.create(this.module, {
      name: "scale-out",
      version: "1.0.0",
      cursorSecret: SHARED_CURSOR_SECRET,
      ...this.options.appOptions,
      providers: [
        { provide: STORAGE, useValue: new RedisStorage({ url, prefix: `${prefix}s:` }) },
        { provide: CACHE, useValue: new RedisCache({ url, prefix: `${prefix}c:` }) },
        { provide: EVENT_BUS, useValue: new RedisEventBus({ url, channel: `${prefix}events` }) },
        ...(this.options.sharedSessions
          ? [
              {
                provide: SESSION_STORE,
                useValue: new RedisSessionStore({ url, prefix: `${prefix}sessions:` }),
              },
            ]
          : []),
        ...(this.options.appOptions?.providers ?? []),
      ],
    });
    const handler = app.httpHandler({
      ...(this.options.stateless ? { stateless: true } : {}),
      ...(this.options.sharedEventStore
        ? { eventStore: new RedisEventStore({ url, prefix: `${prefix}ev:` }) }
        : {}),
      ...this.options.httpOptions,
    });
    const requests: Record<string, number> = {};
    const server = createServer((req: IncomingMessage & { auth?: AuthInfo }, res) => {
      const method = req.method ?? "?";
      requests[method] = (requests[method] ?? 0) + 1;
      // A stream resumed after a break (Last-Event-ID), counted apart too.
      if (req.headers["last-event-id"])
        requests[`${method} resume`] = (requests[`${method} resume`] ?? 0) + 1;
      // What a bearer-token middleware in front of the handler does.
      const token = /^Bearer (token-(.+))$/.exec(req.headers.authorization ?? "");
      if (token) req.auth = { token: token[1] as string, clientId: token[2] as string, scopes: [] };
      void handler(req, res);
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => resolve());
    });
    return { app, server, requests, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp` };
  }
}

async function stop({ app, server }: Running): Promise<void> {
  await app.close();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/**
 * A client that sends each call to the next instance. With sessions it holds one SDK
 * client per instance and `next()` picks the next one (`on(i)` a given one); stateless,
 * one SDK client whose fetch sends each request to the next instance's URL.
 */
export class RoundRobinClient {
  private readonly sessions: Array<Client | undefined> = [];
  private turn = 0;

  constructor(
    private readonly instances: Instances,
    private readonly token: string,
    private readonly stateless: boolean,
    private readonly capabilities: ClientCapabilities = {},
  ) {}

  /** The bearer token this client sends. */
  get bearer(): string {
    return this.token;
  }

  async open(): Promise<void> {
    if (this.stateless) {
      this.sessions[0] = await this.connectTo(this.instances.url(0), roundRobinFetch(this.instances));
      return;
    }
    for (let i = 0; i < this.instances.count; i++) await this.reconnect(i);
  }

  /** The client for the next call (round robin over the instances). */
  next(): Client {
    if (this.stateless) return this.on(0);
    const i = this.turn++ % this.instances.count;
    return this.on(i);
  }

  /** The client whose calls go to instance `i` (stateless: the one client). */
  on(i: number): Client {
    const client = this.sessions[this.stateless ? 0 : i];
    if (!client) throw new Error(`no client is connected to instance ${i}`);
    return client;
  }

  /** Opens a new session on instance `i` (after it restarted). */
  async reconnect(i: number): Promise<Client> {
    await this.sessions[i]?.close().catch(() => {});
    const client = await this.connectTo(this.instances.url(i));
    this.sessions[i] = client;
    return client;
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.sessions.map((client) => client?.close()));
  }

  private async connectTo(url: string, fetch?: typeof globalThis.fetch): Promise<Client> {
    const client = new Client({ name: "round-robin", version: "0.0.0" }, { capabilities: this.capabilities });
    const headers = { authorization: `Bearer ${this.token}` };
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers },
        ...(fetch ? { fetch } : {}),
      }),
    );
    return client;
  }
}

/** A fetch that sends each request to the next instance (for stateless mode). */
function roundRobinFetch(instances: Instances): typeof globalThis.fetch {
  let turn = 0;
  return (input, init) => {
    const target = new URL(instances.url(turn++ % instances.count));
    const url = new URL(input instanceof Request ? input.url : String(input));
    url.host = target.host;
    return fetch(url, init);
  };
}
