import { EVENT_BUS, type EventBus, Inject, Injectable } from "frugal-mcp";

/** The event that marks `test://watched-resource` as changed (see `TestResourcesService`). */
export const WATCHED_RESOURCE_CHANGED = "conformance.watched-resource.changed";

/** How often the watched resource changes by itself, in ms; 0 (the module's default) never. */
export const WATCH_INTERVAL_MS = Symbol("WATCH_INTERVAL_MS");

/**
 * The state behind `test://watched-resource`. `update()` changes it and announces the change
 * on the app's event bus; the resource is cached with `invalidateOn` that event, so the
 * framework drops the cached copy and sends `notifications/resources/updated` to every
 * session subscribed to the URI.
 */
@Injectable()
export class WatchedResource {
  private text = "Watched resource content";
  private revision = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    @Inject(EVENT_BUS) private readonly events: EventBus,
    @Inject(WATCH_INTERVAL_MS) private readonly intervalMs: number,
  ) {}

  /** Awaited by the app at start-up: starts the ticker when an interval is configured. */
  async ready(): Promise<void> {
    if (this.intervalMs > 0) {
      this.timer = setInterval(() => void this.update(), this.intervalMs);
      this.timer.unref();
    }
  }

  /** Called by `app.close()`. */
  close(): void {
    clearInterval(this.timer);
  }

  get content(): string {
    return this.text;
  }

  get version(): number {
    return this.revision;
  }

  /** Replaces the content (by default with a numbered revision) and notifies subscribers. */
  async update(text?: string): Promise<void> {
    this.revision += 1;
    this.text = text ?? `Watched resource content (revision ${this.revision})`;
    await this.events.emit(WATCHED_RESOURCE_CHANGED, { revision: this.revision });
  }
}
