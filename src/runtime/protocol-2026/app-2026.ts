import type { AddressInfo } from "node:net";
import type { Server, ServerEventBus, Transport } from "@modelcontextprotocol/server";
import type { Clock } from "../../clock/clock.js";
import { CLOCK } from "../../tokens.js";
import type { HttpHandler, HttpHandlerOptions } from "../../transports/http-handler.js";
import { sendJsonRpcError } from "../../transports/json-rpc-response.js";
import type { ListenOptions } from "../../transports/listen.js";
import { StdioTransport } from "../../transports/stdio-transport.js";
import type { AppContainer } from "../app-container.js";
import type { McpAppOptions } from "../app-options.js";
import type { AppRuntime } from "../app-runtime.js";
import { type AppStats, McpApp } from "../mcp-app.js";
import type { Session } from "../session.js";
import { settledWithin } from "../settled-within.js";
import { eraRouter } from "./era-router.js";
import { inputReplay } from "./input-replay.js";
import { ListenedUris } from "./listened-uris.js";
import { observingListens } from "./stdio-listens.js";
import { createV2ServerFactory } from "./v2-registrar.js";
import type { V2Sdk } from "./v2-sdk.js";

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "::1"]);

/**
 * An app made with `protocol: "2026-07-28"`: it serves the 2026-07-28 revision through the
 * SDK v2 packages and still answers 2025-11-25 clients. Over HTTP an era router sends
 * 2026 requests to per-request v2 servers and 2025 requests to the sessionful 1.x
 * handler; over stdio the v2 `serveStdio` lets the opening exchange pick the era.
 * `connect(transport)` with an SDK 1.x transport serves a 2025 session as before.
 */
export class McpApp2026 extends McpApp {
  private readonly serverFactory: ReturnType<typeof createV2ServerFactory>;
  private readonly units = new Set<Session>();
  private readonly stoppers: Array<() => Promise<void>> = [];
  private readonly listened = new ListenedUris();
  /** The servers of open 2026-07-28 stdio connections (one each, for the connection's life). */
  private readonly stdioServers = new Set<Server>();
  private readonly bus: ServerEventBus;

  /** @internal Use `McpFactory.create(…, { protocol: "2026-07-28" })`. */
  constructor(
    private readonly settings: McpAppOptions,
    runtime: AppRuntime,
    appContainer: AppContainer,
    private readonly sdk: V2Sdk,
  ) {
    super(settings, runtime, appContainer);
    const host = {
      get draining() {
        return app.draining;
      },
      opened: (session: Session) => this.units.add(session),
      closed: (session: Session) => this.units.delete(session),
    };
    const app = this;
    // Invalidations reach 2026 clients on their `subscriptions/listen` streams (one bus for
    // every HTTP handler of the app) as they reach 2025 sessions through `resources/subscribe`.
    this.bus = new sdk.server.InMemoryServerEventBus((error) =>
      this.logger.warn("a subscriptions/listen stream failed to take a notification", error),
    );
    runtime.invalidator.attach({
      subscribedUris: () => new Set([...this.legacySubscriptions(), ...this.listened.uris()]),
      notifyResourceUpdated: (uri) => this.notifyResourceUpdated(uri),
    });
    const clock = appContainer.resolve(CLOCK) as Clock;
    this.serverFactory = createV2ServerFactory(
      runtime,
      settings,
      sdk,
      host,
      inputReplay(runtime, settings, clock),
    );
  }

  /**
   * Serves one connection over an SDK v2 transport (stdio-like: the v2 `InMemoryTransport`,
   * a socket): the opening exchange decides its era, as `serveStdio` does.
   */
  async connectAnyEra(transport: Transport): Promise<void> {
    if (this.draining) throw new Error("this app is closed; create a new one with McpFactory.create");
    // A 2026 connection's server lives as long as the connection: invalidations reach its
    // `subscriptions/listen` streams through it (serveStdio routes what it sends to them).
    const factory: typeof this.serverFactory = (context) => {
      const server = this.serverFactory(context);
      if (context.era !== "modern") return server;
      this.stdioServers.add(server);
      const closed = server.onclose;
      server.onclose = () => {
        this.stdioServers.delete(server);
        closed?.();
      };
      return server;
    };
    const handle = this.sdk.stdio.serveStdio(factory, {
      transport: observingListens(transport, this.listened),
      onerror: (error) => this.logger.warn("2026-07-28 stdio serving reported an error", error),
    });
    this.stoppers.push(() => handle.close());
  }

  override async listen(options: ListenOptions & { transport: "http" }): Promise<{ url: string }>;
  override async listen(options: ListenOptions & { transport: "stdio" }): Promise<{ url?: undefined }>;
  override async listen(options: ListenOptions): Promise<{ url?: string }>;
  override async listen(options: ListenOptions): Promise<{ url?: string }> {
    if (options.transport === "stdio") {
      await this.connectAnyEra(new StdioTransport(this.logger) as unknown as Transport);
      return {};
    }
    return this.listenHttp(options);
  }

  /** The era router (see the class comment), mountable like the 1.x handler. */
  override httpHandler(options: HttpHandlerOptions = {}): HttpHandler {
    const legacy = super.httpHandler(options);
    const modern = this.sdk.server.createMcpHandler(this.serverFactory, {
      legacy: "reject",
      maxRequestBodySize: options.maxBodyBytes ?? 4 * 1024 * 1024,
      onerror: (error) => this.logger.debug("2026-07-28 request refused", error),
      bus: this.bus,
    });
    this.stoppers.push(() => modern.close());
    return eraRouter(this.sdk, legacy, modern, options, () => this.draining, this.listened);
  }

  /** Sends `notifications/resources/updated` to subscribed 2025 sessions and to 2026 listen streams. */
  override async notifyResourceUpdated(uri: string): Promise<void> {
    if (this.listened.has(uri)) {
      this.bus.publish({ kind: "resource_updated", uri });
      await this.toStdioListens((server) => server.sendResourceUpdated({ uri }));
    }
    await super.notifyResourceUpdated(uri);
  }

  /** Also tells 2026 listen streams, for a change of a global resource (`owner` null) only. */
  override async notifyResourceListChanged(owner: string | null): Promise<void> {
    if (owner === null) {
      this.bus.publish({ kind: "resources_list_changed" });
      await this.toStdioListens((server) => server.sendResourceListChanged());
    }
    await super.notifyResourceListChanged(owner);
  }

  /** Sends a change to every 2026 stdio connection; each delivers it to the listen streams that asked for it. */
  private async toStdioListens(send: (server: Server) => Promise<void>): Promise<void> {
    const sent = [...this.stdioServers].map((server) =>
      send(server).catch((error: unknown) =>
        this.logger.warn("a subscriptions/listen stream over stdio failed to take a notification", error),
      ),
    );
    await Promise.all(sent);
  }

  /**
   * The URIs 2025 sessions subscribed to. `McpApp` keeps its sessions private; read them
   * here rather than widen its API for this one subclass.
   */
  private legacySubscriptions(): string[] {
    const sessions = (this as unknown as { sessions: Set<Session> }).sessions;
    return [...sessions].flatMap((session) => [...session.subscriptions]);
  }

  /** Counters for monitoring, with the 2026 serving units (a stdio connection, a request being answered) as sessions. */
  override stats(): AppStats {
    const stats = super.stats();
    let inFlight = 0;
    for (const unit of this.units) inFlight += unit.inFlight.size;
    return { ...stats, sessions: stats.sessions + this.units.size, inFlight: stats.inFlight + inFlight };
  }

  /** Drains the 2026 requests and connections beside the 2025 sessions, then closes like `McpApp`. */
  override close(): Promise<void> {
    const closing = super.close();
    return Promise.all([closing, this.stopV2()]).then(() => undefined);
  }

  private async stopV2(): Promise<void> {
    const drainMs = this.settings.drainTimeoutMs ?? 10_000;
    const running = [...this.units].flatMap((unit) => [...unit.inFlight.keys()]);
    await settledWithin(Promise.allSettled(running), drainMs);
    for (const unit of this.units) unit.lifetime.abort(new Error("the app is closing"));
    await Promise.allSettled(this.stoppers.splice(0).map((stop) => stop()));
  }

  private async listenHttp(options: ListenOptions & { transport: "http" }): Promise<{ url: string }> {
    const host = options.host ?? "127.0.0.1";
    const path = options.path ?? "/mcp";
    let handlerOptions: HttpHandlerOptions = options;
    if (!LOOPBACK_HOSTS.has(host) && options.allowedHosts === undefined) {
      this.logger.warn(
        `listening on ${host} without allowedHosts: the Host check is off; set allowedHosts to protect against DNS rebinding`,
      );
      handlerOptions = { ...options, allowedHosts: "any" };
    }
    const handler = this.httpHandler(handlerOptions);
    const { createServer } = await import("node:http");
    const server = createServer((req, res) => {
      const pathname = (req.url ?? "/").split("?")[0];
      if (pathname !== path)
        return sendJsonRpcError(res, 404, -32000, `Not found: the MCP endpoint is ${path}`);
      handler(req, res).catch((error: unknown) => {
        this.logger.error("serving an HTTP request failed", error);
        if (!res.headersSent) sendJsonRpcError(res, 500, -32603, "Internal error");
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(options.port ?? 3000, host, () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}${path}`;
    this.logger.info(`MCP server listening on ${url} (MCP 2026-07-28 and 2025-11-25)`);
    this.stoppers.push(async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });
    return { url };
  }
}
