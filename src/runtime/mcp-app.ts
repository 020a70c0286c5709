import { randomUUID } from "node:crypto";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type { InjectionToken } from "tsyringe";
import type { Logger } from "../logging/logger.js";
import { createHttpHandler, type HttpHandler, type HttpHandlerOptions } from "../transports/http-handler.js";
import { type ListenOptions, listen } from "../transports/listen.js";
import type { AppContainer } from "./app-container.js";
import type { McpAppOptions } from "./app-options.js";
import type { AppRuntime } from "./app-runtime.js";
import { closeAll } from "./lifecycle.js";
import { createRegistrar } from "./registrar.js";
import { type Session, sessionServes } from "./session.js";

/** Counters readable with `app.stats()`. */
export interface AppStats {
  /** Sessions connected now. */
  sessions: number;
  /** Calls running now. */
  inFlight: number;
  cache: {
    hits: number;
    misses: number;
    /** Calls that waited for an identical running miss instead of running the handler. */
    coalesced: number;
    /** Entries the cache evicted to stay within its size. */
    evictions: number;
    /** Cache backend failures (those calls were served from the source). */
    backendErrors: number;
    /** Results kept out of the cache because an invalidation arrived while they were computed. */
    staleDiscards: number;
  };
  /** Tokens returned per tool (counted under a budget): calls counted and total tokens. */
  tokens: Record<string, { calls: number; tokens: number }>;
  resources: {
    /** Sources of `resources/list` (a template's `list`, the ephemeral storage) that failed; the rest was listed. */
    listErrors: number;
  };
}

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
  private readonly sessions = new Set<Session>();
  private readonly install: (session: Session) => void;
  // Compiling JSON schemas is the costly part of a server; share it across sessions.
  private readonly validator = new AjvJsonSchemaValidator();
  private readonly closers: Array<() => Promise<void>> = [];
  private closing: Promise<void> | undefined;

  /** @internal Use `McpFactory.create`. */
  constructor(
    private readonly options: McpAppOptions,
    private readonly runtime: AppRuntime,
    private readonly appContainer: AppContainer,
  ) {
    this.install = createRegistrar(runtime);
    runtime.ephemeral.onListChanged = (owner) => void this.notifyResourceListChanged(owner);
    runtime.invalidator.attach({
      subscribedUris: () => new Set([...this.sessions].flatMap((s) => [...s.subscriptions])),
      notifyResourceUpdated: (uri) => this.notifyResourceUpdated(uri),
    });
  }

  /** The app's logger (stderr by default; the `LOGGER` token). */
  get logger(): Logger {
    return this.runtime.logger;
  }

  /** Resolves a provider or service from the app's container (handy in tests). */
  get<T>(token: InjectionToken<T>): T {
    return this.appContainer.resolve(token);
  }

  /**
   * Serves one session over an SDK transport, with its own SDK server instance, so two
   * connections never share state (or responses). Resolves once the transport has started.
   */
  async connect(transport: Transport): Promise<void> {
    if (this.closing) throw new Error("this app is closed; create a new one with McpFactory.create");
    const server = new Server(
      { name: this.options.name, version: this.options.version },
      {
        capabilities: {
          tools: { listChanged: true },
          resources: { subscribe: true, listChanged: true },
          prompts: { listChanged: true },
          logging: {},
          completions: {},
        },
        ...(this.options.instructions === undefined ? {} : { instructions: this.options.instructions }),
        jsonSchemaValidator: this.validator,
      },
    );
    const fallbackId = randomUUID();
    const session: Session = {
      id: () => transport.sessionId ?? fallbackId,
      server,
      logLevel: undefined,
      subscriptions: new Set(),
      inFlight: new Set(),
      sending: new Set(),
      principals: new Set(),
      lifetime: new AbortController(),
    };
    trackSends(transport, session.sending);
    this.install(session);
    server.onclose = () => {
      this.sessions.delete(session);
      session.lifetime.abort(new Error("session closed"));
      if (this.options.ephemeral?.deleteOnSessionEnd) {
        void this.runtime.ephemeral.deleteOwnedBy(`session:${session.id()}`).catch((error) => {
          this.logger.warn(
            "deleting the resources of an ended session failed; their TTL still bounds them",
            error,
          );
        });
      }
    };
    this.sessions.add(session);
    await server.connect(transport);
  }

  /** Serves over stdio, or Streamable HTTP (`{ transport: "http", port, host, path }`). */
  async listen(options: ListenOptions & { transport: "http" }): Promise<{ url: string }>;
  async listen(options: ListenOptions & { transport: "stdio" }): Promise<{ url?: undefined }>;
  async listen(options: ListenOptions): Promise<{ url?: string }>;
  async listen(options: ListenOptions): Promise<{ url?: string }> {
    const started = await listen(this, options);
    this.closers.push(started.close);
    return started.url === undefined ? {} : { url: started.url };
  }

  /**
   * A Node request handler serving Streamable HTTP, to mount in an existing Node or
   * Express server: `expressApp.all("/mcp", app.httpHandler())`.
   */
  httpHandler(options: HttpHandlerOptions = {}): HttpHandler {
    const handler = createHttpHandler(this, options);
    this.closers.push(() => handler.close());
    return handler;
  }

  /** Sends `notifications/resources/updated` to every session subscribed to `uri`. */
  async notifyResourceUpdated(uri: string): Promise<void> {
    const subscribed = [...this.sessions].filter((s) => s.subscriptions.has(uri));
    await Promise.allSettled(subscribed.map((s) => s.server.sendResourceUpdated({ uri })));
  }

  /**
   * Sends `notifications/resources/list_changed` to the sessions of `owner` (every
   * session for a global resource, `owner` null).
   */
  async notifyResourceListChanged(owner: string | null): Promise<void> {
    const targets = [...this.sessions].filter((s) => owner === null || sessionServes(s, owner));
    await Promise.allSettled(targets.map((s) => s.server.sendResourceListChanged()));
  }

  /** Counters for monitoring. */
  stats(): AppStats {
    let inFlight = 0;
    for (const session of this.sessions) inFlight += session.inFlight.size;
    const { metrics, cache } = this.runtime;
    return {
      sessions: this.sessions.size,
      inFlight,
      cache: {
        hits: metrics.cacheHits,
        misses: metrics.cacheMisses,
        coalesced: metrics.cacheCoalesced,
        evictions: cache.evictions ?? 0,
        backendErrors: metrics.cacheBackendErrors,
        staleDiscards: metrics.cacheStaleDiscards,
      },
      tokens: Object.fromEntries([...metrics.tokensByTool].map(([tool, t]) => [tool, { ...t }])),
      resources: { listErrors: metrics.resourceListErrors },
    };
  }

  /**
   * Stops serving: waits for running calls (up to `drainTimeoutMs`), ends every session,
   * stops listeners, and closes providers that hold connections. Safe to call twice.
   */
  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private async shutdown(): Promise<void> {
    this.runtime.invalidator.stop();
    this.runtime.ephemeral.stopSweeping();
    const running = [...this.sessions].flatMap((s) => [...s.inFlight]);
    if (running.length > 0) {
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise((resolve) => {
        timer = setTimeout(resolve, this.options.drainTimeoutMs ?? 10_000);
      });
      await Promise.race([Promise.allSettled(running), deadline]);
      clearTimeout(timer);
      // The SDK starts writing a response on a later turn than the handler resolves (and a
      // transport may store it in an event store first): let every response go out.
      await new Promise((resolve) => setImmediate(resolve));
      await Promise.allSettled([...this.sessions].flatMap((s) => [...s.sending]));
    }
    await Promise.allSettled([...this.sessions].map((s) => s.server.close()));
    for (const close of this.closers.splice(0))
      await close().catch((e) => this.logger.error("closing a listener failed", e));
    await closeAll(this.appContainer.instances, this.logger);
  }
}

/** Wraps a transport's `send` so the app knows which messages are still on their way. */
function trackSends(transport: Transport, sending: Set<Promise<void>>): void {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    const sent = send(message, options);
    sending.add(sent);
    const done = () => sending.delete(sent);
    sent.then(done, done);
    return sent;
  };
}
