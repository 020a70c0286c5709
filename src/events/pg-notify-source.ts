import { ExternalEventSource } from "./external-event-source.js";

/** The part of a `pg` client this source uses. */
export interface PgListenClient {
  /** Opens the connection; the source calls it once, before its `LISTEN`s. */
  connect(): Promise<unknown>;
  /** Runs one statement: the source sends only `LISTEN` and `UNLISTEN`. */
  query(text: string): Promise<unknown>;
  /** Receives each `NOTIFY` on a channel listened to. */
  on(event: "notification", listener: (message: { channel: string; payload?: string }) => void): unknown;
  /** Receives a connection failure (the source listens so that it does not crash the process). */
  on(event: "error", listener: (error: Error) => void): unknown;
  /** Closes the connection; the source calls it only on a client it made (one passed in is yours to end). */
  end(): Promise<void>;
}

/** Options of `PgNotifySource`. */
export interface PgNotifySourceOptions {
  /** Channels to `LISTEN` on (one or several). */
  channel: string | readonly string[];
  /** Connection string (default `DATABASE_URL`); ignored when `client` is given. */
  connectionString?: string;
  /** A dedicated, not yet connected `pg.Client` of your own (LISTEN needs its own connection). */
  client?: PgListenClient;
  /** Event to emit per notification (default: the channel name), with its payload (JSON when it parses). */
  toEvent?: (channel: string, payload: unknown) => { name: string; payload?: unknown } | undefined;
}

/**
 * Turns PostgreSQL `NOTIFY` into events: a trigger that notifies on a table change
 * invalidates the cached results (and subscribed resources) that read it. Needs the
 * optional peer dependency `pg` (`npm install pg`), loaded when the source starts, unless
 * you pass a `client` of your own.
 *
 * @example
 * ```sql
 * CREATE FUNCTION notify_articles() RETURNS trigger AS $$ BEGIN
 *   PERFORM pg_notify('articles_changed', json_build_object('site', NEW.site)::text); RETURN NEW;
 * END $$ LANGUAGE plpgsql;
 * CREATE TRIGGER articles_notify AFTER INSERT OR UPDATE ON articles FOR EACH ROW EXECUTE FUNCTION notify_articles();
 * ```
 * ```ts
 * providers: [{ provide: "articles-notify", useValue: new PgNotifySource({ channel: "articles_changed" }) }]
 * // @Cached({ ttl: 60_000, invalidateOn: [{ event: "articles_changed", match: (i, p) => i.site === p.site }] })
 * ```
 */
export class PgNotifySource extends ExternalEventSource {
  private client: PgListenClient | undefined;
  private readonly channels: readonly string[];

  constructor(private readonly options: PgNotifySourceOptions) {
    super();
    this.channels = typeof options.channel === "string" ? [options.channel] : [...options.channel];
    for (const channel of this.channels) {
      if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(channel)) {
        throw new Error(
          `PgNotifySource: "${channel}" is not a plain PostgreSQL identifier; use letters, digits and _`,
        );
      }
    }
  }

  protected async listen(): Promise<void> {
    const client = this.options.client ?? (await this.createClient());
    this.client = client;
    client.on("notification", (message) => {
      const payload = parsePayload(message.payload);
      const event = this.options.toEvent
        ? this.options.toEvent(message.channel, payload)
        : { name: message.channel, payload };
      if (event) this.publish(event.name, event.payload);
    });
    // A lost connection is reported by pg as an error event; without a listener it would crash the process.
    client.on("error", () => {});
    await client.connect();
    for (const channel of this.channels) await client.query(`LISTEN "${channel}"`);
  }

  protected async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    // A client passed in is yours to end; one this source made is ended here.
    if (client && client !== this.options.client) await client.end().catch(() => {});
    else if (client)
      await Promise.all(this.channels.map((c) => client.query(`UNLISTEN "${c}"`))).catch(() => {});
  }

  private async createClient(): Promise<PgListenClient> {
    let pg: { default?: { Client: new (options: object) => PgListenClient } } & {
      Client?: new (options: object) => PgListenClient;
    };
    try {
      // Loaded here, when the source starts: `pg` is an optional peer dependency.
      pg = await import("pg");
    } catch (error) {
      throw new Error("PgNotifySource needs the optional `pg` package: npm install pg", { cause: error });
    }
    const Client = pg.Client ?? pg.default?.Client;
    if (!Client) throw new Error("the `pg` package has no Client export");
    return new Client({
      connectionString:
        this.options.connectionString ??
        process.env.DATABASE_URL ??
        "postgres://postgres@127.0.0.1:5432/postgres",
    });
  }
}

function parsePayload(payload: string | undefined): unknown {
  if (payload === undefined || payload === "") return undefined;
  try {
    return JSON.parse(payload);
  } catch {
    return payload;
  }
}
