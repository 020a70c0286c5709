import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import {
  closeRedis,
  connectRedis,
  endClient,
  type RedisConnection,
  type RedisConnectionOptions,
  redisConnection,
  redisOptions,
} from "../redis/redis-connection.js";
import type { BusEvent, EventBus, EventListener } from "./event-bus.js";
import { InMemoryEventBus } from "./in-memory-event-bus.js";

/** Options of `RedisEventBus`. */
export interface RedisEventBusOptions extends RedisConnectionOptions {
  /** Pub/sub channel shared by the instances of one app (default `frugal:events`). */
  channel?: string;
}

/**
 * Carries events between app instances over Redis pub/sub, so an invalidation on one
 * instance drops cache entries (and notifies subscribers) on all of them. Local
 * listeners get an event at once; other instances get it from Redis. Payloads must be
 * JSON. A publish failure is logged by the emitter and does not lose the local delivery.
 *
 * @example
 * ```ts
 * providers: [{ provide: EVENT_BUS, useValue: new RedisEventBus({ channel: "articles:events" }) }]
 * ```
 */
export class RedisEventBus implements EventBus {
  private readonly local = new InMemoryEventBus();
  private readonly publisher: RedisConnection;
  private readonly subscriber: Redis;
  private readonly channel: string;
  private readonly instanceId = randomUUID();
  private subscribed: Promise<void> | undefined;

  constructor(options: RedisEventBusOptions = {}) {
    this.publisher = redisConnection(options);
    this.channel = options.channel ?? "frugal:events";
    // A subscribed connection can run nothing else, so the bus always owns a second one.
    this.subscriber = options.client
      ? options.client.duplicate(redisOptions(options.commandTimeoutMs))
      : new Redis(
          options.url ?? process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
          redisOptions(options.commandTimeoutMs),
        );
    this.subscriber.on("message", (channel: string, message: string) => {
      if (channel === this.channel) void this.receive(message);
    });
    // ioredis reports connection errors as events; they are expected during an outage.
    this.subscriber.on("error", () => {});
  }

  /** Connects and subscribes; `McpFactory.create` waits for this (briefly). */
  ready(): Promise<void> {
    this.subscribed ??= (async () => {
      await connectRedis(this.publisher);
      // "end": closed by an earlier app built from the same module; connect it again.
      if (["wait", "end", "close"].includes(this.subscriber.status)) await this.subscriber.connect();
      await this.subscriber.subscribe(this.channel);
    })();
    return this.subscribed;
  }

  async emit(name: string, payload?: unknown): Promise<void> {
    const message = JSON.stringify({ origin: this.instanceId, name, payload });
    const published = this.publisher.client.publish(this.channel, message);
    await this.local.emit(name, payload);
    await published;
  }

  subscribe(listener: EventListener): () => void {
    return this.local.subscribe(listener);
  }

  async close(): Promise<void> {
    this.subscribed = undefined;
    await endClient(this.subscriber);
    await closeRedis(this.publisher);
  }

  private async receive(message: string): Promise<void> {
    let event: BusEvent & { origin?: string };
    try {
      event = JSON.parse(message);
    } catch {
      return;
    }
    if (event.origin === this.instanceId || typeof event.name !== "string") return;
    await this.local.emit(event.name, event.payload).catch(() => {});
  }
}
