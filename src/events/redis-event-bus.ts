// Over 300 lines on purpose: one class, the EVENT_BUS contract on Redis pub/sub, whose parts share one
// connection state (outbox while the publisher is down, subscriber reconnects, heartbeat, delivery changes);
// split apart they would pass that state around. Its helpers are at the bottom.
import { randomUUID } from "node:crypto";
import type { RedisOptions } from "ioredis";
import { fieldOf } from "../common/guards.js";
import {
  closeRedis,
  clusterOptions,
  connectRedis,
  createClusterClient,
  createRedisClient,
  endClient,
  isCluster,
  type RedisClient,
  type RedisConnection,
  type RedisConnectionOptions,
  redisConnection,
  redisOptions,
} from "../redis/redis-connection.js";
import type { BusEvent, DeliveryChange, EventBus, EventListener } from "./event-bus.js";
import { InMemoryEventBus } from "./in-memory-event-bus.js";

/** Options of `RedisEventBus`. */
export interface RedisEventBusOptions extends RedisConnectionOptions {
  /** Pub/sub channel shared by the instances of one app (default `frugal:events`). */
  channel?: string;
  /**
   * How often the bus checks its subscription (a PING on it) and sends again the events
   * it could not publish (default 1,000 ms). A hung Redis is noticed within this plus the
   * command timeout, even though its connections stay open.
   */
  heartbeatMs?: number;
}

/** Events kept for sending again; past this, the other instances are told to drop everything instead. */
const OUTBOX_LIMIT = 1_000;

/** An event on its way to Redis. */
interface Outgoing {
  readonly message: string;
  sent: boolean;
}

/** What an instance publishes: an event, or (`resync`) word that some of its events were lost. */
interface WireMessage extends Partial<BusEvent> {
  origin?: string;
  resync?: boolean;
}

/**
 * Carries events between app instances over Redis pub/sub, so an invalidation on one
 * instance drops cache entries (and notifies subscribers) on all of them. Local
 * listeners get an event at once; other instances get it from Redis. Payloads must be
 * JSON.
 *
 * Nothing is lost silently when Redis fails. An event that cannot be published is
 * delivered locally, reported to the emitter (which logs it) and sent again, in order,
 * once Redis answers; past 1,000 such events the others are told to drop whatever events
 * could have invalidated. When the subscription breaks (the connection closes, or a
 * heartbeat PING goes unanswered while Redis hangs) the bus reports `"interrupted"`
 * through `onDeliveryChange`, and `"restored"` once it is subscribed and answered again:
 * the app's caches then drop what events missed in between could have invalidated.
 *
 * On Redis Cluster (`cluster: [...]`, or a `Cluster` as `client`), PUBLISH reaches the
 * subscribers of every node, so instances connected to different nodes hear each other.
 *
 * @example
 * ```ts
 * providers: [{ provide: EVENT_BUS, useValue: new RedisEventBus({ channel: "articles:events" }) }]
 * ```
 */
export class RedisEventBus implements EventBus {
  private readonly local = new InMemoryEventBus();
  private readonly watchers = new Set<(change: DeliveryChange) => void>();
  private readonly publisher: RedisConnection;
  private readonly subscriber: RedisClient;
  private readonly channel: string;
  private readonly heartbeatMs: number;
  private readonly instanceId = randomUUID();
  /** Events not yet published, oldest first. */
  private readonly outbox: Outgoing[] = [];
  /** Events were dropped from a full outbox: the others must be told to resynchronise. */
  private overflowed = false;
  private flushing: Promise<void> | undefined;
  private lastPublishError: unknown;
  private opening: Promise<void> | undefined;
  private subscribing: Promise<unknown> | undefined;
  private subscribed = false;
  /** Events from other instances may have been missed since the last time it was subscribed. */
  private missing = false;
  private pinging = false;
  private heartbeat: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(options: RedisEventBusOptions = {}) {
    this.publisher = redisConnection(options);
    this.channel = options.channel ?? "frugal:events";
    this.heartbeatMs = options.heartbeatMs ?? 1_000;
    // A subscribed connection can run nothing else, so the bus always owns a second one.
    // It subscribes again itself on each reconnection (ioredis's own resubscription
    // leaves its promise without a handler, and would not say when it is done).
    const subscriberOptions: RedisOptions = {
      ...redisOptions(options.commandTimeoutMs),
      autoResubscribe: false,
    };
    this.subscriber = subscriberFor(options, subscriberOptions);
    this.subscriber.on("message", (channel: string, message: string) => {
      if (channel === this.channel) void this.receive(message);
    });
    // ioredis reports connection errors as events; they are expected during an outage.
    this.subscriber.on("error", () => {});
    this.subscriber.on("ready", () => void this.subscribeNow());
    this.subscriber.on("close", () => this.connectionLost());
  }

  /** Connects and subscribes; `McpFactory.create` waits for this (briefly). */
  ready(): Promise<void> {
    this.closed = false;
    this.startHeartbeat();
    this.opening ??= this.open().catch((error: unknown) => {
      this.opening = undefined;
      // Subscribed later (it keeps trying), it cannot know what it missed until then.
      this.missing = true;
      throw error;
    });
    return this.opening;
  }

  async emit(name: string, payload?: unknown): Promise<void> {
    const outgoing: Outgoing = {
      message: JSON.stringify({ origin: this.instanceId, name, payload } satisfies WireMessage),
      sent: false,
    };
    // Publishing and the local delivery run side by side. The publication settles into
    // `outgoing.sent` and never rejects, so a Redis failure is never a rejection left
    // without a handler while local listeners run.
    const published = this.publish(outgoing);
    try {
      await this.local.emit(name, payload);
    } finally {
      await published;
    }
    if (!outgoing.sent) {
      throw new Error(
        `publishing "${name}" to Redis failed (${reasonOf(this.lastPublishError)}); other instances get it once Redis answers`,
      );
    }
  }

  subscribe(listener: EventListener): () => void {
    return this.local.subscribe(listener);
  }

  onDeliveryChange(listener: (change: DeliveryChange) => void): () => void {
    this.watchers.add(listener);
    return () => this.watchers.delete(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    this.opening = undefined;
    this.subscribing = undefined;
    this.subscribed = false;
    await endClient(this.subscriber);
    await closeRedis(this.publisher);
  }

  private async open(): Promise<void> {
    // Both connections are opened whatever becomes of the other: a publisher that failed to
    // connect (a Redis slow to answer at start-up) must not leave the subscriber never
    // opened, or this instance would never hear the others once Redis answers.
    const [published, subscribing] = await Promise.allSettled([
      connectRedis(this.publisher),
      this.connectSubscriber(),
    ]);
    if (published.status === "rejected") throw published.reason;
    if (subscribing.status === "rejected") throw subscribing.reason;
    const error = await this.subscribeNow();
    if (error) throw error;
  }

  private async connectSubscriber(): Promise<void> {
    // "end": closed by an earlier app built from the same module; connect it again.
    if (["wait", "end", "close"].includes(this.subscriber.status)) await this.subscriber.connect();
  }

  /** Subscribes (once at a time); resolves with the failure, if any, and never rejects. */
  private subscribeNow(): Promise<unknown> {
    if (this.closed) return Promise.resolve(new Error("the event bus is closed"));
    if (!this.subscribing) {
      const attempt: Promise<unknown> = this.subscriber.subscribe(this.channel).then(
        () => {
          this.subscribed = true;
          this.restore();
          return undefined;
        },
        (error: unknown) => {
          if (this.subscribing === attempt) this.subscribing = undefined;
          return error ?? new Error("subscribing failed");
        },
      );
      this.subscribing = attempt;
    }
    return this.subscribing;
  }

  private connectionLost(): void {
    this.subscribing = undefined;
    if (!this.subscribed) return;
    this.subscribed = false;
    this.interrupt();
  }

  private interrupt(): void {
    if (this.missing || this.closed) return;
    this.missing = true;
    this.notify("interrupted");
  }

  private restore(): void {
    if (!this.missing || this.closed) return;
    this.missing = false;
    this.notify("restored");
  }

  private notify(change: DeliveryChange): void {
    for (const watcher of this.watchers) {
      try {
        watcher(change);
      } catch {
        // One watcher's failure is its own; the others still hear of the change.
      }
    }
  }

  private startHeartbeat(): void {
    if (this.heartbeat || this.heartbeatMs <= 0) return;
    this.heartbeat = setInterval(() => this.beat(), this.heartbeatMs);
    this.heartbeat.unref();
  }

  /** Sends again what could not be published, resubscribes, and checks that Redis still answers. */
  private beat(): void {
    if (this.closed) return;
    if (this.outbox.length > 0 || this.overflowed) void this.flush();
    if (this.subscriber.status === "ready" && !this.subscribed) void this.subscribeNow();
    // A first connection that failed for good (ioredis gave up on it): try again.
    if (this.subscriber.status === "end" || this.subscriber.status === "wait")
      void this.connectSubscriber().catch(() => {});
    if (!this.subscribed || this.pinging) return;
    this.pinging = true;
    this.subscriber.ping().then(
      () => {
        this.pinging = false;
        this.restore();
      },
      () => {
        this.pinging = false;
        this.interrupt();
      },
    );
  }

  /** Queues an event behind any still unsent (order is kept) and sends what it can. */
  private publish(outgoing: Outgoing): Promise<void> {
    if (this.outbox.length >= OUTBOX_LIMIT) {
      // Those events were reported as failed already; a resync notice replaces them.
      this.outbox.length = 0;
      this.overflowed = true;
    }
    this.outbox.push(outgoing);
    return this.flush();
  }

  /** Sends the outbox in order, once at a time; stops at the first failure. Never rejects. */
  private flush(): Promise<void> {
    this.flushing ??= this.sendOutbox();
    return this.flushing;
  }

  private async sendOutbox(): Promise<void> {
    // Lets `flushing` be set before this runs on, so its reset below is never undone.
    await Promise.resolve();
    const { client } = this.publisher;
    try {
      for (;;) {
        if (this.overflowed) {
          const notice: WireMessage = { origin: this.instanceId, resync: true };
          await client.publish(this.channel, JSON.stringify(notice));
          this.overflowed = false;
          continue;
        }
        const next = this.outbox[0];
        if (!next) return;
        await client.publish(this.channel, next.message);
        next.sent = true;
        if (this.outbox[0] === next) this.outbox.shift();
      }
    } catch (error) {
      this.lastPublishError = error;
    } finally {
      this.flushing = undefined;
    }
  }

  private async receive(message: string): Promise<void> {
    let event: WireMessage;
    try {
      event = JSON.parse(message);
    } catch {
      return;
    }
    if (event.origin === this.instanceId) return;
    if (event.resync === true) {
      // Another instance lost events it could not publish: treat it like a lost subscription.
      this.notify("restored");
      return;
    }
    if (typeof event.name !== "string") return;
    await this.local.emit(event.name, event.payload).catch(() => {});
  }
}

/**
 * The bus's own subscriber connection, of the same kind as its publisher: a copy of an
 * adopted client (a Cluster's copy subscribes through one of its nodes; PUBLISH reaches
 * every node of a cluster), or a new one.
 */
function subscriberFor(options: RedisEventBusOptions, settings: RedisOptions): RedisClient {
  const { client, cluster } = options;
  if (client)
    return isCluster(client)
      ? client.duplicate(undefined, clusterOptions(settings))
      : client.duplicate(settings);
  if (cluster && cluster.length > 0) return createClusterClient(cluster, settings);
  return createRedisClient(options.url ?? process.env.REDIS_URL ?? "redis://127.0.0.1:6379", settings);
}

/** A short reason for a Redis failure (no URL, no credentials). */
function reasonOf(error: unknown): string {
  const message = String(fieldOf(error, "message") ?? error);
  if (/timed out/i.test(message)) return "Redis did not answer in time";
  if (/Stream isn't writeable|enableOfflineQueue|Connection is closed|MaxRetriesPerRequest/i.test(message))
    return "Redis is not connected";
  return message.split("\n")[0]?.slice(0, 200) ?? "unknown error";
}
