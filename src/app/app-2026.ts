import type { Server, ServerEventBus, Transport } from "@modelcontextprotocol/server";
import type { ListKind } from "../catalogue/catalogue.js";
import type { AppContainer } from "../container/app-container.js";
import type { InputLimits } from "../pipeline/stages/measure-input.js";
import type { AppRuntime } from "../protocol/app-runtime.js";
import { sendListChanged } from "../protocol/list-changed.js";
import { CompletedStates } from "../protocol/registrar-2026/completed-states.js";
import { DEFAULT_REPLAY_TTL_MS, inputReplay } from "../protocol/registrar-2026/input-replay.js";
import { ListenedUris } from "../protocol/registrar-2026/listened-uris.js";
import { modernEra } from "../protocol/registrar-2026/modern-era.js";
import { type ModernScreen, modernScreen } from "../protocol/registrar-2026/modern-screen.js";
import { answersProblem } from "../protocol/registrar-2026/screen-answers.js";
import { stdioFront } from "../protocol/registrar-2026/stdio-front.js";
import { createV2ServerFactory } from "../protocol/registrar-2026/v2-registrar.js";
import { loadedV2Sdk, loadV2Sdk, type V2Sdk } from "../protocol/registrar-2026/v2-sdk.js";
import type { V2Transport } from "../protocol/registrar-2026/v2-transport.js";
import { type Session, sessionServes } from "../protocol/session.js";
import { CLOCK, SESSION_STORE } from "../tokens.js";
import type { SecondEra } from "../transports/front-door.js";
import type { HttpHandlerOptions } from "../transports/http-handler.js";
import type { ListenOptions } from "../transports/listen.js";
import { StdioTransport } from "../transports/stdio-transport.js";
import { DEFAULT_INPUT_LIMITS, type McpAppOptions } from "./app-options.js";
import { type AppStats, McpApp } from "./mcp-app.js";

import { settledWithin } from "./settled-within.js";

/**
 * Loads the SDK v2 packages (`loadV2Sdk`), which `McpApp2026` needs built. The factory imports
 * this module on demand and loads them through it: one dynamic import (a module imported both
 * statically and dynamically is a bundler warning), and a declaration naming no v2 type.
 *
 * @internal
 */
export async function loadSdk2026(): Promise<void> {
  await loadV2Sdk();
}

/**
 * An app made with `protocol: "2026-07-28"`: it serves the 2026-07-28 revision through the
 * SDK v2 packages and still answers 2025-11-25 clients. Over HTTP, the app's one front door
 * (host check, connection limits, authentication, body limit) passes 2026 requests to
 * per-request v2 servers and 2025 requests to the sessionful 1.x handler; over stdio the v2
 * `serveStdio` lets the opening exchange pick the era.
 * `connect(transport)` with an SDK 1.x transport serves a 2025 session as before.
 */
export class McpApp2026 extends McpApp {
  private readonly serverFactory: ReturnType<typeof createV2ServerFactory>;
  private readonly units = new Set<Session>();
  /** 2025-era stdio connections served by a v2 server, with it: their subscriptions are notified here. */
  private readonly legacyUnits = new Map<Session, Server>();
  /** The limits the answers of a 2026 request are held to: those of arguments. */
  private readonly inputLimits: InputLimits;
  /** The SEP-2243 header-mirrored parameters of each tool that declares some. */
  private readonly screen: ModernScreen;
  private readonly stoppers: Array<() => Promise<void>> = [];
  private readonly listened = new ListenedUris();
  /** The servers of open 2026-07-28 stdio connections (one each, for the connection's life). */
  private readonly stdioServers = new Set<Server>();
  private readonly bus: ServerEventBus;
  // Taken from the loaded module, not from a constructor parameter: a parameter's type would
  // appear in the published declarations, and they must not name the optional v2 packages.
  private readonly sdk: V2Sdk = loadedV2Sdk();

  /** @internal Use `McpFactory.create(…, { protocol: "2026-07-28" })`, which loads the SDK v2 first. */
  constructor(
    private readonly settings: McpAppOptions,
    runtime: AppRuntime,
    appContainer: AppContainer,
  ) {
    super(settings, runtime, appContainer);
    const sdk = this.sdk;
    const host = {
      get draining() {
        return app.draining;
      },
      opened: (session: Session, server: Server, era: "legacy" | "modern") => {
        this.units.add(session);
        if (era === "legacy") this.legacyUnits.set(session, server);
      },
      closed: (session: Session) => {
        this.units.delete(session);
        this.legacyUnits.delete(session);
      },
    };
    const app = this;
    // Invalidations reach 2026 clients on their `subscriptions/listen` streams (one bus for
    // every HTTP handler of the app) as they reach 2025 sessions through `resources/subscribe`.
    this.bus = new sdk.server.InMemoryServerEventBus((error) =>
      this.logger.warn("a subscriptions/listen stream failed to take a notification", error),
    );
    this.inputLimits = { ...DEFAULT_INPUT_LIMITS, ...settings.inputLimits };
    this.screen = modernScreen(runtime, this.inputLimits);
    const clock = appContainer.resolve(CLOCK);
    this.serverFactory = createV2ServerFactory(
      runtime,
      this.operations,
      settings,
      sdk,
      host,
      inputReplay(runtime, settings, clock),
      new CompletedStates(
        runtime.cache.records ?? appContainer.resolve(SESSION_STORE).records,
        DEFAULT_REPLAY_TTL_MS,
      ),
    );
  }

  /**
   * Serves one connection over an SDK v2 transport (stdio-like: the v2 `InMemoryTransport`,
   * a socket): the opening exchange decides its era, as `serveStdio` does.
   */
  async connectAnyEra(transport: V2Transport): Promise<void> {
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
      transport: stdioFront(transport as Transport, this.listened, (message) =>
        answersProblem(message, this.inputLimits),
      ),
      onerror: (error) => this.logger.warn("2026-07-28 stdio serving reported an error", error),
    });
    this.stoppers.push(() => handle.close());
  }

  override async listen(options: ListenOptions & { transport: "http" }): Promise<{ url: string }>;
  override async listen(options: ListenOptions & { transport: "stdio" }): Promise<{ url?: undefined }>;
  override async listen(options: ListenOptions): Promise<{ url?: string }>;
  override async listen(options: ListenOptions): Promise<{ url?: string }> {
    if (options.transport === "stdio") {
      await this.connectAnyEra(new StdioTransport(this.logger));
      return {};
    }
    return super.listen(options);
  }

  /** @internal The 2026-07-28 revision, behind the same front door as the 2025 sessions. */
  protected override secondEra(options: HttpHandlerOptions): SecondEra {
    const maxBodyBytes = options.maxBodyBytes ?? 4 * 1024 * 1024;
    const modern = this.sdk.server.createMcpHandler(this.serverFactory, {
      legacy: "reject",
      maxRequestBodySize: maxBodyBytes,
      onerror: (error) => this.logger.debug("2026-07-28 request refused", error),
      bus: this.bus,
    });
    return modernEra(this.sdk, modern, maxBodyBytes, this.listened, this.screen);
  }

  /**
   * Sends `notifications/resources/updated` to subscribed 2025 sessions (those served by the
   * 1.x SDK and the 2025 stdio connections a v2 server serves) and to 2026 listen streams.
   */
  override async notifyResourceUpdated(uri: string): Promise<void> {
    if (this.listened.has(uri)) {
      this.bus.publish({ kind: "resource_updated", uri });
      await this.toStdioListens((server) => server.sendResourceUpdated({ uri }));
    }
    const legacy = [...this.legacyUnits].filter(([unit]) => unit.subscriptions.has(uri));
    await Promise.allSettled(legacy.map(([, server]) => server.sendResourceUpdated({ uri })));
    await super.notifyResourceUpdated(uri);
  }

  /** Also tells 2026 listen streams, for a change of a global resource (`owner` null) only. */
  override async notifyResourceListChanged(owner: string | null): Promise<void> {
    if (owner === null) {
      this.bus.publish({ kind: "resources_list_changed" });
      await this.toStdioListens((server) => server.sendResourceListChanged());
    }
    const legacy = [...this.legacyUnits].filter(([unit]) => owner === null || sessionServes(unit, owner));
    await Promise.allSettled(legacy.map(([, server]) => server.sendResourceListChanged()));
    await super.notifyResourceListChanged(owner);
  }

  /** @internal Also tells 2025 stdio connections and the 2026 listen streams that asked for these lists. */
  protected override async notifyListsChanged(lists: readonly ListKind[]): Promise<void> {
    for (const list of lists) {
      this.bus.publish({ kind: LISTEN_KIND[list] });
      await this.toStdioListens((server) => sendListChanged(server, list));
    }
    const legacy = [...this.legacyUnits.values()];
    await Promise.allSettled(legacy.flatMap((server) => lists.map((list) => sendListChanged(server, list))));
    await super.notifyListsChanged(lists);
  }

  /**
   * @internal Also tells a principal's 2026 listen streams that its tool list grew: the
   * streams of a shared bus cannot be told apart by principal, so every stream that asked for
   * tool list changes lists again (an anonymous 2026 caller has no list that lasts).
   */
  protected override async notifyToolListChanged(owner: string): Promise<void> {
    if (owner.startsWith("principal:")) {
      this.bus.publish({ kind: "tools_list_changed" });
      await this.toStdioListens((server) => server.sendToolListChanged());
    }
    const legacy = [...this.legacyUnits].filter(([unit]) => sessionServes(unit, owner));
    await Promise.allSettled(legacy.map(([, server]) => server.sendToolListChanged()));
    await super.notifyToolListChanged(owner);
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

  /** @internal The URIs 2025 sessions and 2025 stdio connections subscribed to, and those 2026 streams listen to. */
  protected override subscribedUris(): Set<string> {
    const uris = super.subscribedUris();
    for (const unit of this.legacyUnits.keys()) for (const uri of unit.subscriptions) uris.add(uri);
    for (const uri of this.listened.uris()) uris.add(uri);
    return uris;
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
}

/** The v2 event bus kind of each list's list-changed notification. */
const LISTEN_KIND = {
  tools: "tools_list_changed",
  prompts: "prompts_list_changed",
  resources: "resources_list_changed",
} as const;
