import { type FSWatcher, watch } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { ExternalEventSource } from "./external-event-source.js";

/** Options of `FileWatchSource`. */
export interface FileWatchSourceOptions {
  /** The file to watch (chosen by the server, never by a client). */
  path: string;
  /** The event to emit when it changes. */
  event: string;
  /** Payload of the event (default `{ path }`). */
  payload?: unknown;
  /** Changes within this many milliseconds make one event (default 50). */
  debounceMs?: number;
}

/**
 * Emits an event when a file changes, e.g. to invalidate the cached resource that reads
 * it. It watches the file's directory, so editors and deploy tools that replace the file
 * (write a temporary file, then rename it) are seen too.
 *
 * @example
 * ```ts
 * providers: [{ provide: "config-watch", useValue: new FileWatchSource({ path: "./config.json", event: "config.changed" }) }]
 * // @Resource("config://app") @Cached({ ttl: 3_600_000, invalidateOn: ["config.changed"] })
 * ```
 */
export class FileWatchSource extends ExternalEventSource {
  private watcher: FSWatcher | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: FileWatchSourceOptions) {
    super();
  }

  protected async listen(): Promise<void> {
    const path = resolve(this.options.path);
    const name = basename(path);
    const payload = this.options.payload ?? { path };
    this.watcher = watch(dirname(path), { persistent: false }, (_type, changed) => {
      if (changed !== null && changed.toString() !== name) return;
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.publish(this.options.event, payload), this.options.debounceMs ?? 50);
    });
  }

  protected async stop(): Promise<void> {
    clearTimeout(this.timer);
    this.watcher?.close();
    this.watcher = undefined;
  }
}
