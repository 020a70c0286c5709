import type { RedisOptions } from "ioredis";
import {
  clusterOptions,
  createClusterClient,
  createRedisClient,
  endClient,
  isCluster,
  type RedisClient,
  type RedisConnection,
  type RedisConnectionOptions,
  redisOptions,
} from "../redis/redis-connection.js";

/**
 * Pub/sub between the instances sharing a `RedisSessionStore`: a client's answer to a
 * server-to-client request goes to the instance whose call asked it. Publishing uses the
 * store's connection; listening needs a connection of its own (a subscribed connection runs
 * nothing else), opened on the first `listen` and resubscribed by ioredis after a reconnection.
 */
export class RedisChannels {
  private subscriber: RedisClient | undefined;
  private readonly handlers = new Map<string, (message: string) => void>();

  constructor(
    private readonly options: RedisConnectionOptions,
    private readonly publisher: RedisConnection,
  ) {}

  /** Publishes `message`; resolves how many subscribers received it. */
  publish(channel: string, message: string): Promise<number> {
    return this.publisher.client.publish(channel, message);
  }

  async listen(channel: string, onMessage: (message: string) => void): Promise<() => Promise<void>> {
    const subscriber = this.connect();
    if (subscriber.status === "wait" || subscriber.status === "end") await subscriber.connect();
    this.handlers.set(channel, onMessage);
    await subscriber.subscribe(channel);
    return async () => {
      this.handlers.delete(channel);
      if (subscriber.status === "ready") await subscriber.unsubscribe(channel).catch(() => {});
    };
  }

  async close(): Promise<void> {
    this.handlers.clear();
    const subscriber = this.subscriber;
    this.subscriber = undefined;
    if (subscriber) await endClient(subscriber);
  }

  private connect(): RedisClient {
    if (this.subscriber) return this.subscriber;
    // Commands of a subscribed connection queue while it reconnects, so it may resubscribe.
    const settings: RedisOptions = {
      ...redisOptions(this.options.commandTimeoutMs),
      enableOfflineQueue: true,
    };
    const { client, cluster, url } = this.options;
    const subscriber = client
      ? isCluster(client)
        ? client.duplicate(undefined, clusterOptions(settings))
        : client.duplicate(settings)
      : cluster && cluster.length > 0
        ? createClusterClient(cluster, settings)
        : createRedisClient(url ?? process.env.REDIS_URL ?? "redis://127.0.0.1:6379", settings);
    subscriber.on("error", () => {});
    subscriber.on("message", (channel: string, message: string) => this.handlers.get(channel)?.(message));
    this.subscriber = subscriber;
    return subscriber;
  }
}
