import type {
  EventStore,
  StreamableHTTPServerTransport,
} from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest, type RequestId } from "@modelcontextprotocol/sdk/types.js";
import type { SessionRecord } from "../sessions/session-store.js";
import type { HttpHandlerOptions } from "./http-handler.js";
import { MemoryEventStore } from "./memory-event-store.js";
import { isSharedEventStore, ScopedEventStore, type SharedEventStore } from "./scoped-event-store.js";

/** One session as the handler sees it (with a shared session store: this instance's copy of it). */
export interface HttpSession {
  /** The `Mcp-Session-Id`, chosen before `initialize` is answered. */
  readonly id: string;
  readonly transport: StreamableHTTPServerTransport;
  readonly store: EventStore | undefined;
  /** The principal that opened it, when it was opened with auth info: it serves that principal only. */
  readonly principal: string | undefined;
  /** HTTP requests of the session being answered now (an open GET stream counts). */
  open: number;
  /** When `open` last dropped to zero. */
  idleSince: number;
  timer: NodeJS.Timeout | undefined;
  ended: boolean;
  /**
   * Closing the transport ends the session for good, its record too: while it is not yet
   * established, on DELETE, and always for an unshared store. A shared session's copy
   * closing here otherwise (idle on this instance, the instance stopping) leaves it to the others.
   */
  ending: boolean;
  /** Touches the shared record while requests of the session are open here (an open GET stream is activity). */
  keepAlive: NodeJS.Timeout | undefined;
  /** Applies the record to the app's session (what another instance changed). */
  apply: ((record: SessionRecord) => void) | undefined;
  /** Stops relaying the client's answers to this copy. */
  detach: (() => void) | undefined;
  /** GET streams of the session open on this instance. */
  streams: number;
}

/**
 * The handler's view of a session about to start, over its SDK transport (not yet connected).
 *
 * @example
 * const session = newHttpSession(randomUUID(), transport, new MemoryEventStore(), undefined);
 */
export function newHttpSession(
  id: string,
  transport: StreamableHTTPServerTransport,
  store: EventStore | undefined,
  principal: string | undefined,
): HttpSession {
  return {
    id,
    transport,
    store,
    principal,
    open: 0,
    idleSince: Date.now(),
    timer: undefined,
    ended: false,
    ending: true,
    keepAlive: undefined,
    apply: undefined,
    detach: undefined,
    streams: 0,
  };
}

export const CANNOT_RESUME =
  "Cannot resume after this Last-Event-ID: the events after it are no longer kept (the stream store of a session is bounded); send the request again";

/**
 * Whether a GET with `lastEventId` can resume one of the session's streams: false only when the
 * session's own bounded store (memory, or its view of a shared one) dropped the events after it.
 */
export async function canResume(
  session: HttpSession,
  lastEventId: string | string[] | undefined,
): Promise<boolean> {
  if (typeof lastEventId !== "string") return true;
  const { store } = session;
  if (!(store instanceof MemoryEventStore || store instanceof ScopedEventStore)) return true;
  return store.canResumeAfter(lastEventId);
}

/** Whether a POST body holds an `initialize` request. */
export function isInitialize(body: unknown): boolean {
  return Array.isArray(body) ? body.some((m) => isInitializeRequest(m)) : isInitializeRequest(body);
}

/** The ids of the `initialize` requests in a POST body. */
export function initializeIds(body: unknown): RequestId[] {
  const messages = Array.isArray(body) ? body : [body];
  return messages.filter((m) => isInitializeRequest(m)).map((m) => (m as unknown as { id: RequestId }).id);
}

/** The `eventStore` option when it is one store shared by every session; refuses other objects. */
export function sharedEventStore(option: HttpHandlerOptions["eventStore"]): SharedEventStore | undefined {
  if (option === undefined || option === false || typeof option === "function") return undefined;
  if (isSharedEventStore(option)) return option;
  throw new TypeError(
    "HTTP option eventStore must be a function making one store per session (() => new MemoryEventStore()), a store shared by every session (new RedisEventStore(…)), or false",
  );
}

/** A numeric HTTP option, checked (a RangeError names it otherwise). */
export function checkedOption(name: string, value: number, min: number): number {
  if (typeof value !== "number" || Number.isNaN(value) || value < min)
    throw new RangeError(`HTTP option ${name} must be a number >= ${min}, got ${String(value)}`);
  return value;
}
