import type {
  EventStore,
  StreamableHTTPServerTransport,
} from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest, type RequestId } from "@modelcontextprotocol/sdk/types.js";
import type { SessionRecord } from "../sessions/session-store.js";
import type { HttpHandlerOptions } from "./http-handler.js";
import { isSharedEventStore, type SharedEventStore } from "./scoped-event-store.js";

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
