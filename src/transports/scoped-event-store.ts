import { createHash } from "node:crypto";
import type { EventId, EventStore, StreamId } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { isObject } from "../common/guards.js";
import type { FollowEnd } from "./redis-event-store.js";

/**
 * An event store that several sessions or requests share (a `RedisEventStore`), with what
 * resuming a stream on another request needs beyond the SDK's `EventStore`. Its event ids
 * begin with their stream id (the scoped views below rely on it).
 *
 * @example
 * ```ts
 * const events: SharedEventStore = new RedisEventStore({ url: process.env.REDIS_URL });
 * app.httpHandler({ stateless: true, authenticate, eventStore: events });
 * ```
 */
export interface SharedEventStore extends EventStore {
  /** How long a stream is kept after its last event: nobody can resume it later than that. */
  readonly ttlMs: number;
  getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined>;
  /** Whether the events after `eventId` are all still kept. */
  canResumeAfter(eventId: EventId): Promise<boolean>;
  /** Replays after `lastEventId`, then follows the stream until it is marked answered or expires. */
  follow(
    lastEventId: EventId,
    send: (eventId: EventId, message: JSONRPCMessage) => Promise<void>,
    signal: AbortSignal,
  ): Promise<FollowEnd>;
  /** Marks a stream as answered: followers stop there. */
  endStream(streamId: StreamId): Promise<void>;
}

/** Whether `store` is an event store object that can be shared (not a per-session factory). */
export function isSharedEventStore(store: unknown): store is SharedEventStore {
  const candidate = store;
  return (
    isObject(candidate) &&
    typeof candidate.storeEvent === "function" &&
    typeof candidate.follow === "function" &&
    typeof candidate.endStream === "function" &&
    typeof candidate.canResumeAfter === "function" &&
    typeof candidate.getStreamIdForEventId === "function" &&
    typeof candidate.ttlMs === "number"
  );
}

/**
 * One session's (or one principal's) view of a shared event store. Its stream ids are
 * prefixed with a digest of the scope, so an event id of another scope names no stream
 * here: a caller can resume only its own streams, even though the store is shared (and the
 * SDK names every session's standalone GET stream the same).
 */
export class ScopedEventStore implements EventStore {
  /** The SDK stream ids written through this view. */
  readonly streams = new Set<StreamId>();
  private readonly tag: string;

  constructor(
    private readonly shared: SharedEventStore,
    scope: string,
  ) {
    this.tag = createHash("sha256").update(scope).digest("hex").slice(0, 32);
  }

  storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    this.streams.add(streamId);
    return this.shared.storeEvent(this.scoped(streamId), message);
  }

  async getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    if (!this.owns(eventId)) return undefined;
    const streamId = await this.shared.getStreamIdForEventId(eventId);
    return streamId?.startsWith(`${this.tag}.`) ? streamId.slice(this.tag.length + 1) : undefined;
  }

  async canResumeAfter(eventId: EventId): Promise<boolean> {
    return this.owns(eventId) && (await this.shared.canResumeAfter(eventId));
  }

  async replayEventsAfter(
    lastEventId: EventId,
    handlers: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> },
  ): Promise<StreamId> {
    const streamId = await this.getStreamIdForEventId(lastEventId);
    if (streamId === undefined) throw new Error(`cannot resume after event ${lastEventId}`);
    await this.shared.replayEventsAfter(lastEventId, handlers);
    return streamId;
  }

  /** Follows one of this scope's streams (see `SharedEventStore.follow`). */
  follow(
    lastEventId: EventId,
    send: (eventId: EventId, message: JSONRPCMessage) => Promise<void>,
    signal: AbortSignal,
  ): Promise<FollowEnd> {
    if (!this.owns(lastEventId)) return Promise.resolve("expired");
    return this.shared.follow(lastEventId, send, signal);
  }

  /** Marks every stream written through this view as answered. */
  async endStreams(except: StreamId): Promise<void> {
    await Promise.all(
      [...this.streams].filter((id) => id !== except).map((id) => this.shared.endStream(this.scoped(id))),
    );
  }

  private scoped(streamId: StreamId): StreamId {
    return `${this.tag}.${streamId}`;
  }

  private owns(eventId: EventId): boolean {
    return eventId.startsWith(`${this.tag}.`);
  }
}
