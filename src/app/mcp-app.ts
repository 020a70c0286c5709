// Over 300 lines: McpApp is the one public object of a running app (connect, listen, HTTP handler,
// notifications, stats, close), each method short; what they build lives beside it: its stats
// (app-stats.ts), drain (drain.ts), a session's server (session-server.ts) and transport (session-transport.ts).
import { randomUUID } from "node:crypto";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type { InjectionToken } from "tsyringe";
import type { ListKind } from "../catalogue/catalogue.js";
import type { CatalogueControl } from "../catalogue/catalogue-control.js";
import type { AppContainer } from "../container/app-container.js";
import type { Logger } from "../logging/logger.js";
import type { AppRuntime } from "../protocol/app-runtime.js";
import { principalOwner } from "../protocol/calls/owner.js";
import { sendListChanged } from "../protocol/list-changed.js";
import type { OperationTable } from "../protocol/operations/operation.js";
import { createOperationTable } from "../protocol/operations/operation-table.js";
import { installOperations } from "../protocol/registrar-2025/install-operations.js";
import { ownerScopedFeatures } from "../protocol/registrar-2025/stateless-session.js";
import { newSession, type ServedSession, sessionServes } from "../protocol/session.js";
import type { SessionStore } from "../sessions/session-store.js";
import { SESSION_STORE } from "../tokens.js";
import { createHttpHandler, type SecondEra } from "../transports/front-door.js";
import type { HttpHandler, HttpHandlerOptions, HttpHandlerStats } from "../transports/http-handler.js";
import { type ListenOptions, listen } from "../transports/listen.js";
import { limitMounted, type MountedHttpHandler } from "../transports/mounted-limits.js";
import type { SessionBinding } from "../transports/session-host.js";
import { DEFAULT_INPUT_LIMITS, type McpAppOptions } from "./app-options.js";
import { type AppStats, appStats } from "./app-stats.js";
import { drainSessions, HANDLER_GRACE_MS } from "./drain.js";
import { closeAll } from "./lifecycle.js";
import { bindSession, sessionServer } from "./session-server.js";
import { sessionTransport } from "./session-transport.js";

export type { AppStats } from "./app-stats.js";

import { settledWithin } from "./settled-within.js";

/**
 * A built frugal-mcp app: serves sessions over any transport. Create it with
 * `McpFactory.create`.
 *
 * @example
 * ```ts
 * const app = await McpFactory.create(AppModule, { name: "articles", version: "1.0.0" });
 * const { url } = await app.listen({ transport: "http", port: 3000 });
 * // …
 * await app.close();
 * ```
 */
export class McpApp {
  private readonly sessions = new Set<ServedSession>();
  /** @internal Every protocol operation, built once and installed on each session's server (and the 2026 registrar's). */
  protected readonly operations: OperationTable;
  // Compiling JSON schemas is the costly part of a server; share it across sessions.
  private readonly validator = new AjvJsonSchemaValidator();
  private readonly closers: Array<() => Promise<void>> = [];
  private readonly httpStats: Array<() => HttpHandlerStats> = [];
  private get maxInputDepth(): number {
    return this.options.inputLimits?.maxDepth ?? DEFAULT_INPUT_LIMITS.maxDepth;
  }
  private closing: Promise<void> | undefined;
  private isDraining = false;

  /** @internal Use `McpFactory.create`. */
  constructor(
    private readonly options: McpAppOptions,
    private readonly runtime: AppRuntime,
    private readonly appContainer: AppContainer,
  ) {
    this.operations = createOperationTable(runtime);
    runtime.ephemeral.onListChanged = (owner) => void this.notifyResourceListChanged(owner);
    runtime.catalogue.onListsChanged = (lists) => this.notifyListsChanged(lists);
    runtime.catalogue.onRevealed = (owner) => this.notifyToolListChanged(owner);
    runtime.invalidator.attach({
      subscribedUris: () => this.subscribedUris(),
      notifyResourceUpdated: (uri) => this.notifyResourceUpdated(uri),
    });
  }

  /** The app's logger (stderr by default; the `LOGGER` token). */
  get logger(): Logger {
    return this.runtime.logger;
  }

  /**
   * True once `close()` was called: new sessions are refused (HTTP answers 503) and every
   * request that arrives is answered at once with a "server is shutting down" error.
   */
  get draining(): boolean {
    return this.isDraining;
  }

  /**
   * The owner that `auth` stands for (`principal:<id>`, by the `principalOf` option, or a
   * digest of its token when that names nobody), or `undefined` when it identifies nobody.
   * An HTTP session opened with auth info serves that principal only.
   */
  principalOf(auth: AuthInfo): string | undefined {
    return principalOwner(this.runtime.principalOf, auth);
  }

  /**
   * The operations whose data belongs to each owner (cached or spilled with
   * `scope: "owner"`): a stateless HTTP server needs authentication to serve them.
   */
  ownerScopedFeatures(): readonly string[] {
    return ownerScopedFeatures(this.runtime.registry);
  }

  /**
   * Switches tools, resources and prompts on and off at run time, on every instance that
   * shares the app's `EVENT_BUS`, telling every client whose list changed (see
   * {@link CatalogueControl}).
   *
   * @example
   * ```ts
   * await app.catalogue.disable("issue_refund"); // every client is told its tool list changed
   * ```
   */
  get catalogue(): CatalogueControl {
    return this.runtime.catalogue.control;
  }

  /** Where the app's 2025-11-25 HTTP sessions live (the `SESSION_STORE` provider). */
  get sessionStore(): SessionStore {
    return this.appContainer.resolve(SESSION_STORE);
  }

  /** Resolves a provider or service from the app's container (handy in tests). */
  get<T>(token: InjectionToken<T>): T {
    return this.appContainer.resolve(token);
  }

  /**
   * Serves one session over an SDK transport, with its own SDK server instance, so two
   * connections never share state (or responses). Resolves once the transport has started.
   * `stateless: true` serves one request of a stateless HTTP server: requests to the client
   * (`ctx.elicit`, `ctx.sample`) and subscriptions are refused, and no notification is sent
   * outside the request (the HTTP handler passes it). `session` ties an HTTP session to its
   * record in the session store (and rebuilds one opened on another instance).
   */
  async connect(
    transport: Transport,
    options: { stateless?: boolean; session?: SessionBinding } = {},
  ): Promise<void> {
    if (this.closing) throw new Error("this app is closed; create a new one with McpFactory.create");
    const server = sessionServer(this.options, this.validator, options.stateless === true);
    const fallbackId = randomUUID();
    const session: ServedSession = {
      ...newSession(
        () => transport.sessionId ?? fallbackId,
        () => server.getClientCapabilities(),
        options.stateless === true,
      ),
      server,
    };
    const binding = options.session;
    if (binding) bindSession(session, binding);
    const screen = { draining: () => this.isDraining, maxInputDepth: this.maxInputDepth };
    const tracked = sessionTransport(transport, session, screen);
    // A shared session's relay sits outside the app's tracking: what it sends passes through it.
    const served = binding?.wrap ? binding.wrap(tracked) : tracked;
    installOperations(server, session, this.operations);
    server.onclose = () => this.sessionClosed(session, binding?.endsOnClose() ?? true);
    this.sessions.add(session);
    await server.connect(served);
  }

  /** A session's server closed; `ended`: the session ended, not only this instance's copy of a shared one. */
  private sessionClosed(session: ServedSession, ended: boolean): void {
    this.sessions.delete(session);
    session.lifetime.abort(new Error("session closed"));
    // What search revealed to the session goes with it (not with a shared session's local copy).
    if (ended) this.runtime.catalogue.forget(`session:${session.id()}`);
    // A shared session's copy closing on this instance leaves the session (and its resources) to the others.
    if (this.options.ephemeral?.deleteOnSessionEnd && ended) {
      void this.runtime.ephemeral.deleteOwnedBy(`session:${session.id()}`).catch((error) => {
        this.logger.warn(
          "deleting the resources of an ended session failed; their TTL still bounds them",
          error,
        );
      });
    }
  }

  /** Serves over stdio, or Streamable HTTP (`{ transport: "http", port, host, path }`). */
  async listen(options: ListenOptions & { transport: "http" }): Promise<{ url: string }>;
  async listen(options: ListenOptions & { transport: "stdio" }): Promise<{ url?: undefined }>;
  async listen(options: ListenOptions): Promise<{ url?: string }>;
  async listen(options: ListenOptions): Promise<{ url?: string }> {
    const started = await listen(this, options, (handlerOptions) => this.frontDoor(handlerOptions));
    this.closers.push(started.close);
    if (started.stats) this.httpStats.push(started.stats);
    return started.url === undefined ? {} : { url: started.url };
  }

  /**
   * A Node request handler serving Streamable HTTP, to mount in an existing Node or
   * Express server: `expressApp.all("/mcp", app.httpHandler())`. It holds the front door's
   * connection cap and header/request timeouts itself (`maxConnections`, `headersTimeoutMs`,
   * `requestTimeoutMs`) from the first request it serves; `handler.attach(server)` holds
   * them from the server's first connection.
   */
  httpHandler(options: HttpHandlerOptions = {}): MountedHttpHandler {
    // `listen` sets the connection cap and timeouts on the server it creates; mounted, the handler holds them.
    const handler = limitMounted(this.frontDoor(options), options, this.logger);
    this.closers.push(() => handler.close());
    this.httpStats.push(() => handler.stats());
    return handler;
  }

  /** The one front door of every HTTP request, with the app's second protocol era behind it, if any. */
  private frontDoor(options: HttpHandlerOptions): HttpHandler {
    return createHttpHandler(this, options, this.secondEra(options));
  }

  /**
   * @internal The protocol era served beside the 2025-11-25 sessions behind the HTTP front
   * door (none by default; the 2026-07-28 app serves its revision there).
   */
  protected secondEra(_options: HttpHandlerOptions): SecondEra | undefined {
    return undefined;
  }

  /** @internal The resource URIs that open 2025 sessions subscribed to. */
  protected subscribedUris(): Set<string> {
    return new Set([...this.sessions].flatMap((s) => [...s.subscriptions]));
  }

  /** Sends `notifications/resources/updated` to every session subscribed to `uri`. */
  async notifyResourceUpdated(uri: string): Promise<void> {
    // A shared session hears of the change on every instance: the one holding its GET stream tells it.
    const subscribed = [...this.sessions].filter(
      (s) => !s.stateless && s.subscriptions.has(uri) && (s.notifiesHere?.() ?? true),
    );
    await Promise.allSettled(subscribed.map((s) => s.server.sendResourceUpdated({ uri })));
  }

  /**
   * Sends `notifications/resources/list_changed` to the sessions of `owner` (every
   * session for a global resource, `owner` null).
   */
  async notifyResourceListChanged(owner: string | null): Promise<void> {
    // A stateless request has no stream outside its own answer: it is not told.
    const targets = [...this.sessions].filter(
      (s) => !s.stateless && (owner === null || sessionServes(s, owner)),
    );
    await Promise.allSettled(targets.map((s) => s.server.sendResourceListChanged()));
  }

  /**
   * @internal Sends the list-changed notifications of `lists` (`"tools"`, `"prompts"`,
   * `"resources"`) to every 2025 session: the catalogue changed.
   */
  protected async notifyListsChanged(lists: readonly ListKind[]): Promise<void> {
    const targets = [...this.sessions].filter((s) => !s.stateless);
    await Promise.allSettled(targets.flatMap((s) => lists.map((list) => sendListChanged(s.server, list))));
  }

  /** @internal Sends `notifications/tools/list_changed` to the 2025 sessions of `owner` (its tool list grew). */
  protected async notifyToolListChanged(owner: string): Promise<void> {
    const targets = [...this.sessions].filter((s) => !s.stateless && sessionServes(s, owner));
    await Promise.allSettled(targets.map((s) => s.server.sendToolListChanged()));
  }

  /** Counters for monitoring. */
  stats(): AppStats {
    let inFlight = 0;
    for (const session of this.sessions) inFlight += session.inFlight.size;
    let eventStoreBytes = 0;
    for (const stats of this.httpStats) eventStoreBytes += stats().eventStoreBytes;
    const live = { sessions: this.sessions.size, inFlight, eventStoreBytes };
    return appStats(live, this.runtime.metrics, this.runtime.cache);
  }

  /**
   * Stops serving. At once: new sessions are refused and requests that arrive are answered
   * with a "server is shutting down" error. Then it waits for running calls to be answered
   * (up to `drainTimeoutMs`); a call still running at the deadline is answered with an
   * error and its `ctx.signal` is aborted. Then it ends every session, stops listeners and
   * closes providers. A handler that ignores `ctx.signal` may still be running when this
   * resolves; it is logged as a warning. Safe to call twice.
   */
  close(): Promise<void> {
    this.isDraining = true;
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private async shutdown(): Promise<void> {
    this.runtime.invalidator.stop();
    this.runtime.catalogue.detach();
    this.runtime.ephemeral.stopSweeping();
    await drainSessions([...this.sessions], this.options.drainTimeoutMs ?? 10_000);
    const running = [...this.sessions].flatMap((session) =>
      [...session.inFlight].map(([call, name]) => ({ session, call, name })),
    );
    // Abort every call's ctx.signal, then end the sessions (the SDK aborts its own signals too).
    for (const session of this.sessions) session.lifetime.abort(new Error("the app is closing"));
    await Promise.allSettled([...this.sessions].map((s) => s.server.close()));
    if (running.length > 0) {
      // Handlers that honour ctx.signal stop now; name those that do not.
      await settledWithin(Promise.allSettled(running.map((r) => r.call)), HANDLER_GRACE_MS);
      const stragglers = running.filter((r) => r.session.inFlight.has(r.call));
      if (stragglers.length > 0) {
        this.logger.warn(
          `app.close(): ${stragglers.length} handler(s) still running after their ctx.signal was aborted (${stragglers
            .map((r) => r.name)
            .join(", ")}); handlers must stop when ctx.signal aborts`,
        );
      }
    }
    for (const close of this.closers.splice(0))
      await close().catch((e) => this.logger.error("closing a listener failed", e));
    await closeAll(this.appContainer.instances, this.logger);
  }
}
