import { fieldOf } from "../../common/guards.js";

/**
 * The resource URIs that open 2026-07-28 `subscriptions/listen` streams asked for, counted
 * per stream: the cache invalidator notifies only URIs someone listens to, as it does for
 * 2025 `resources/subscribe`.
 */
export class ListenedUris {
  private readonly counts = new Map<string, number>();

  /** Records one stream's URIs; the returned function forgets them (once) when it ends. */
  add(uris: readonly string[]): () => void {
    for (const uri of uris) this.counts.set(uri, (this.counts.get(uri) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      for (const uri of uris) {
        const left = (this.counts.get(uri) ?? 1) - 1;
        if (left <= 0) this.counts.delete(uri);
        else this.counts.set(uri, left);
      }
    };
  }

  has(uri: string): boolean {
    return this.counts.has(uri);
  }

  uris(): IterableIterator<string> {
    return this.counts.keys();
  }
}

/** The URIs of a `subscriptions/listen` request body, or none when it is something else. */
export function listenedUrisOf(body: unknown): string[] {
  if (fieldOf(body, "method") !== "subscriptions/listen") return [];
  const uris = fieldOf(fieldOf(fieldOf(body, "params"), "notifications"), "resourceSubscriptions");
  return Array.isArray(uris) ? uris.filter((uri): uri is string => typeof uri === "string") : [];
}
