import type { EventId, EventStore, StreamId } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { asMessage } from "../sdk/sdk1-adapter.js";

/** Default most bytes one session's store keeps (16 MiB). */
export const DEFAULT_EVENT_STORE_MAX_BYTES = 16 * 1024 * 1024;

/**
 * A byte budget shared by several `MemoryEventStore`s (the HTTP handler shares one across
 * the stores of all its sessions). When the stores together go over it, the store holding
 * the most bytes drops its oldest events first, so one session reading large results
 * cannot push out the few small events of the others.
 *
 * @example
 * ```ts
 * const budget = new EventStoreBudget(64 * 1024 * 1024);
 * app.httpHandler({ eventStore: () => new MemoryEventStore({ maxBytes: 4 * 1024 * 1024, budget }) });
 * ```
 */
export class EventStoreBudget {
  private readonly stores = new Set<MemoryEventStore>();
  private used = 0;

  constructor(readonly maxBytes: number) {
    if (!(maxBytes > 0)) throw new RangeError(`EventStoreBudget: maxBytes must be positive, got ${maxBytes}`);
  }

  /** Bytes the stores sharing this budget hold now. */
  get usedBytes(): number {
    return this.used;
  }

  /** @internal A store joins the budget. */
  join(store: MemoryEventStore): void {
    this.stores.add(store);
  }

  /** @internal A store leaves the budget (its bytes were released first). */
  leave(store: MemoryEventStore): void {
    this.stores.delete(store);
  }

  /** @internal Counts `bytes` more, then drops the oldest events of the largest stores until back under the budget. */
  charge(bytes: number): void {
    this.used += bytes;
    while (this.used > this.maxBytes) {
      let largest: MemoryEventStore | undefined;
      for (const store of this.stores) if (!largest || store.bytes > largest.bytes) largest = store;
      if (!largest?.evictOldest()) break;
    }
  }

  /** @internal Counts `bytes` less. */
  release(bytes: number): void {
    this.used -= bytes;
  }
}

/** Options of `MemoryEventStore`. */
export interface MemoryEventStoreOptions {
  /**
   * Most bytes the store keeps, counted as the serialized JSON of the stored messages
   * (default 16 MiB); the oldest events go first. A message larger than this is sent but
   * not kept, so a stream cannot be resumed from before it.
   */
  maxBytes?: number | undefined;
  /** A budget shared with other stores (see `EventStoreBudget`). */
  budget?: EventStoreBudget | undefined;
  /** Most events kept per stream (default 1,000). */
  maxEventsPerStream?: number | undefined;
  /** Most streams kept (default 100); the least recently written stream is forgotten first. */
  maxStreams?: number | undefined;
}

interface StoredEvent {
  readonly streamId: StreamId;
  readonly seq: number;
  /** The message as JSON: what is kept is what is counted, and the message object itself can be collected. */
  readonly json: string;
  readonly bytes: number;
}

interface StreamRecord {
  /** Ids of the events kept, oldest first. */
  readonly ids: Set<EventId>;
  /** Highest sequence number of this stream that was dropped (or never kept): a resume must start at or after it. */
  droppedUpTo: number;
}

/**
 * A bounded in-memory event store so a client can resume a broken Streamable HTTP stream
 * with `Last-Event-ID`. The HTTP handler makes one per session, so an event id from one
 * session can never replay another session's messages; it goes away with the session.
 * It is bounded in bytes (its own `maxBytes`, and a `budget` shared with other stores)
 * and in events and streams. A resume from an event whose successors were dropped is
 * refused (the SDK answers 400) rather than replayed with a gap.
 *
 * @example
 * ```ts
 * app.httpHandler({ eventStore: () => new MemoryEventStore({ maxBytes: 4 * 1024 * 1024 }) });
 * ```
 */
export class MemoryEventStore implements EventStore {
  /** Every kept event, oldest first (a Map keeps insertion order). */
  private readonly events = new Map<EventId, StoredEvent>();
  /** Streams, least recently written first. */
  private readonly streams = new Map<StreamId, StreamRecord>();
  private readonly maxBytes: number;
  private readonly maxEventsPerStream: number;
  private readonly maxStreams: number;
  private readonly budget: EventStoreBudget | undefined;
  private sequence = 0;
  private held = 0;
  private disposed = false;

  constructor(options: MemoryEventStoreOptions = {}) {
    this.maxBytes = options.maxBytes ?? DEFAULT_EVENT_STORE_MAX_BYTES;
    this.maxEventsPerStream = options.maxEventsPerStream ?? 1000;
    this.maxStreams = options.maxStreams ?? 100;
    this.budget = options.budget;
    this.budget?.join(this);
  }

  /** Bytes kept now (the serialized JSON of the kept messages). */
  get bytes(): number {
    return this.held;
  }

  /** Events kept now. */
  get size(): number {
    return this.events.size;
  }

  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    let stream = this.streams.get(streamId);
    if (stream) {
      // Most recently written last: the least recently written stream is forgotten first.
      this.streams.delete(streamId);
    } else {
      if (this.streams.size >= this.maxStreams)
        for (const oldest of this.streams.keys()) {
          this.forgetStream(oldest);
          break;
        }
      stream = { ids: new Set(), droppedUpTo: 0 };
    }
    this.streams.set(streamId, stream);
    const seq = ++this.sequence;
    const id = `${streamId}|${seq}`;
    if (this.disposed) {
      stream.droppedUpTo = seq;
      return id;
    }
    const json = JSON.stringify(message);
    const bytes = Buffer.byteLength(json);
    if (bytes > this.maxBytes || (this.budget && bytes > this.budget.maxBytes)) {
      // Sent, never kept: a resume from before it must be refused, not replayed without it.
      stream.droppedUpTo = seq;
      return id;
    }
    this.events.set(id, { streamId, seq, json, bytes });
    stream.ids.add(id);
    this.held += bytes;
    if (stream.ids.size > this.maxEventsPerStream)
      for (const oldest of stream.ids) {
        this.drop(oldest);
        break;
      }
    while (this.held > this.maxBytes && this.evictOldest()) {}
    this.budget?.charge(bytes);
    return id;
  }

  async getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    return this.resumableStream(eventId)?.streamId;
  }

  /**
   * Whether a client that saw `eventId` can resume after it: its stream is still known
   * and none of the events after it were dropped.
   */
  canResumeAfter(eventId: EventId): boolean {
    return this.resumableStream(eventId) !== undefined;
  }

  /**
   * Sends the events of `lastEventId`'s stream that came after it, in order, and resolves
   * with the stream's id; rejects when they cannot all be replayed (see `canResumeAfter`).
   */
  async replayEventsAfter(
    lastEventId: EventId,
    { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> },
  ): Promise<StreamId> {
    const found = this.resumableStream(lastEventId);
    if (!found) throw new Error(`cannot resume after event ${lastEventId}: the events after it are gone`);
    const { streamId, seq, stream } = found;
    const after = [...stream.ids].flatMap((id) => {
      const event = this.events.get(id);
      return event && event.seq > seq ? [{ id, event }] : [];
    });
    for (const { id, event } of after) await send(id, asMessage(JSON.parse(event.json)));
    return streamId;
  }

  /** Drops the oldest event; false when there is none. */
  evictOldest(): boolean {
    const oldest = this.events.keys().next();
    if (oldest.done) return false;
    this.drop(oldest.value);
    return true;
  }

  /** Drops everything and leaves the shared budget; later events are not kept. The HTTP handler calls it when the session ends. */
  dispose(): void {
    for (const id of [...this.events.keys()]) this.drop(id);
    this.streams.clear();
    this.disposed = true;
    this.budget?.leave(this);
  }

  private resumableStream(eventId: EventId) {
    const bar = eventId.lastIndexOf("|");
    if (bar < 0) return undefined;
    const streamId = eventId.slice(0, bar);
    const seq = Number(eventId.slice(bar + 1));
    if (!Number.isSafeInteger(seq) || seq < 1 || seq > this.sequence) return undefined;
    const stream = this.streams.get(streamId);
    if (!stream || stream.droppedUpTo > seq) return undefined;
    return { streamId, seq, stream };
  }

  private drop(id: EventId): void {
    const event = this.events.get(id);
    if (!event) return;
    this.events.delete(id);
    this.held -= event.bytes;
    this.budget?.release(event.bytes);
    const stream = this.streams.get(event.streamId);
    if (stream) {
      stream.ids.delete(id);
      stream.droppedUpTo = Math.max(stream.droppedUpTo, event.seq);
    }
  }

  private forgetStream(streamId: StreamId): void {
    const stream = this.streams.get(streamId);
    if (!stream) return;
    for (const id of [...stream.ids]) this.drop(id);
    this.streams.delete(streamId);
  }
}
