import type { EventId, EventStore, StreamId } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/**
 * A bounded in-memory event store so a client can resume a broken Streamable HTTP stream
 * with `Last-Event-ID`. The HTTP handler makes one per session, so an event id from one
 * session can never replay another session's messages; it goes away with the session.
 *
 * @example
 * ```ts
 * app.httpHandler({ eventStore: () => new MemoryEventStore({ maxEventsPerStream: 500 }) });
 * ```
 */
export class MemoryEventStore implements EventStore {
  private readonly streams = new Map<StreamId, Array<{ id: EventId; message: JSONRPCMessage }>>();
  private readonly maxEventsPerStream: number;
  private readonly maxStreams: number;
  private sequence = 0;

  constructor(options: { maxEventsPerStream?: number; maxStreams?: number } = {}) {
    this.maxEventsPerStream = options.maxEventsPerStream ?? 1000;
    this.maxStreams = options.maxStreams ?? 100;
  }

  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    let events = this.streams.get(streamId);
    if (!events) {
      // Forget the oldest stream first: a client resumes recent streams, not old ones.
      if (this.streams.size >= this.maxStreams)
        this.streams.delete(this.streams.keys().next().value as StreamId);
      events = [];
      this.streams.set(streamId, events);
    }
    const id = `${streamId}|${++this.sequence}`;
    events.push({ id, message });
    if (events.length > this.maxEventsPerStream) events.shift();
    return id;
  }

  async getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    const streamId = eventId.slice(0, eventId.lastIndexOf("|"));
    return this.streams.has(streamId) ? streamId : undefined;
  }

  async replayEventsAfter(
    lastEventId: EventId,
    { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> },
  ): Promise<StreamId> {
    const streamId = (await this.getStreamIdForEventId(lastEventId)) ?? "";
    const events = this.streams.get(streamId) ?? [];
    const after = events.findIndex((e) => e.id === lastEventId);
    for (const event of events.slice(after + 1)) await send(event.id, event.message);
    return streamId;
  }
}
