import type { ServerResponse } from "node:http";
import type { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { RequestId } from "@modelcontextprotocol/sdk/types.js";
import type { AuthenticatedRequest } from "./authenticate.js";
import { sendJsonRpcError } from "./json-rpc-response.js";
import { resumeStream } from "./resume-stream.js";
import { ScopedEventStore, type SharedEventStore } from "./scoped-event-store.js";
import type { SessionHost } from "./session-host.js";
import { WrappedTransport } from "./wrapped-transport.js";

/** What the stateless requests of one HTTP handler share. */
export interface StatelessSettings {
  readonly app: SessionHost;
  /** The SDK's transport class (loaded lazily by the handler). */
  readonly transportClass: () => typeof StreamableHTTPServerTransport;
  /** The store every request shares for resumption; none: streams cannot be resumed. */
  readonly store: SharedEventStore | undefined;
  readonly enableJsonResponse: boolean;
  readonly retryIntervalMs: number | undefined;
  /** The principal of a request's auth info, or undefined for an anonymous request. */
  readonly principalOf: (req: AuthenticatedRequest) => string | undefined;
}

/** The SDK's name of the standalone GET stream: never written in stateless mode, never ended. */
const STANDALONE_STREAM = "_GET_stream";

const GET_REFUSED =
  "Method not allowed: this server is stateless and keeps no stream open between requests. Messages about a call arrive on that call's POST response; GET only resumes such a response with Last-Event-ID; subscriptions (resources/subscribe) need a stateful server";
const GET_WITHOUT_STORE =
  "Method not allowed: this stateless server keeps no events to resume a stream from; configure eventStore (a RedisEventStore shared by every instance) to allow Last-Event-ID";
const DELETE_REFUSED = "Method not allowed: this server is stateless; there is no session to end";
const SHUTTING_DOWN = "Server is shutting down; connect again later";

/**
 * Stateless Streamable HTTP: every POST is served on its own, by a fresh SDK transport
 * (`sessionIdGenerator: undefined`) and a fresh SDK server, the SDK's pattern for servers
 * without sessions. The registry, pipelines and schema validator are the app's and shared,
 * so a request costs a server object and its handler table, not a build. A POST's transport
 * is closed once every request in it was answered and its response ended; when its stream
 * can be resumed (a shared event store), a call whose client went away keeps running so the
 * client can read its answer later, on any instance, with `Last-Event-ID`.
 */
export class StatelessRequests {
  private readonly open = new Set<StreamableHTTPServerTransport>();

  constructor(private readonly settings: StatelessSettings) {}

  /** Transports serving a POST now. */
  get inFlight(): number {
    return this.open.size;
  }

  async serve(req: AuthenticatedRequest, res: ServerResponse, body: unknown, shuttingDown: boolean) {
    const { store } = this.settings;
    if (req.method === "GET") {
      const lastEventId = req.headers["last-event-id"];
      if (typeof lastEventId !== "string" || lastEventId === "") return methodNotAllowed(res, GET_REFUSED);
      if (!store) return methodNotAllowed(res, GET_WITHOUT_STORE);
      if (!req.headers.accept?.includes("text/event-stream"))
        return sendJsonRpcError(res, 406, -32000, "Not Acceptable: the client must accept text/event-stream");
      return resumeStream(res, this.viewFor(req, store), lastEventId, this.settings.app.logger);
    }
    if (req.method === "DELETE") return methodNotAllowed(res, DELETE_REFUSED);
    if (shuttingDown) return sendJsonRpcError(res, 503, -32000, SHUTTING_DOWN);
    return this.post(req, res, body);
  }

  /** Ends every transport still open (the app is closing). */
  async close(): Promise<void> {
    await Promise.allSettled([...this.open].map((transport) => transport.close()));
  }

  private async post(req: AuthenticatedRequest, res: ServerResponse, body: unknown): Promise<void> {
    const { app, store } = this.settings;
    const view = store ? this.viewFor(req, store) : undefined;
    const Transport = this.settings.transportClass();
    const transport = new Transport({
      sessionIdGenerator: undefined,
      ...(view ? { eventStore: view } : {}),
      ...(this.settings.enableJsonResponse ? { enableJsonResponse: true } : {}),
      ...(this.settings.retryIntervalMs === undefined
        ? {}
        : { retryInterval: this.settings.retryIntervalMs }),
    });
    const unanswered = new Set<RequestId>(requestIdsOf(body));
    let responseEnded = false;
    let ended = false;
    let orphaned: NodeJS.Timeout | undefined;
    const end = () => {
      if (ended) return;
      ended = true;
      clearTimeout(orphaned);
      this.open.delete(transport);
      transport
        .close()
        .catch((error: unknown) => app.logger.warn("closing a stateless request failed", error));
    };
    // A stream the client can resume: the SDK stored its priming event (clients of 2025-11-25 on).
    const resumable = () => view !== undefined && view.streams.size > 0;
    const served = new WrappedTransport(transport, {
      send: async (message, options, forward) => {
        await forward(message, options);
        const answered = "id" in message && ("result" in message || "error" in message);
        if (!answered || message.id === undefined || !unanswered.delete(message.id) || unanswered.size > 0)
          return;
        // Followers of this stream on other instances stop at the mark.
        if (resumable()) {
          await view?.endStreams(STANDALONE_STREAM).catch((error: unknown) => {
            app.logger.warn("marking a stream answered failed: its followers stop when it expires", error);
          });
        }
        if (responseEnded) end();
      },
    });
    res.once("close", () => {
      responseEnded = true;
      // A call whose client left keeps running only if its answer can still be fetched,
      // and no longer than its stream is kept: after that nobody could read the answer.
      if (unanswered.size === 0 || !resumable()) return end();
      orphaned = setTimeout(end, Math.min(store?.ttlMs ?? 0, 2 ** 31 - 1));
      orphaned.unref();
    });
    this.open.add(transport);
    try {
      await app.connect(served, { stateless: true });
    } catch (error) {
      end();
      if (app.draining) return sendJsonRpcError(res, 503, -32000, SHUTTING_DOWN);
      throw error;
    }
    await transport.handleRequest(req, res, body);
  }

  /** The event store as one caller sees it: a principal's streams, or the anonymous ones. */
  private viewFor(req: AuthenticatedRequest, store: SharedEventStore): ScopedEventStore {
    const principal = this.settings.principalOf(req);
    return new ScopedEventStore(store, principal === undefined ? "anonymous" : `auth:${principal}`);
  }
}

function methodNotAllowed(res: ServerResponse, message: string): void {
  res.setHeader("allow", "POST");
  sendJsonRpcError(res, 405, -32000, message);
}

/** The ids of the requests (not notifications or responses) in a POST body. */
function requestIdsOf(body: unknown): RequestId[] {
  const messages = Array.isArray(body) ? body : [body];
  return messages.flatMap((m) =>
    typeof m === "object" && m !== null && "method" in m && "id" in m ? [m.id] : [],
  );
}
