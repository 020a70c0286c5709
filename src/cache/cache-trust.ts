/**
 * Which namespaces (`Service.method`) the cache may serve right now. A namespace is in
 * doubt while an invalidation it needs may not have been applied (the cache backend
 * failed, or the event could not be emitted), and held while this instance may be
 * missing events from the others (the event bus lost its connection). The cache stage
 * neither serves nor stores such a namespace: its calls go to the source. The
 * invalidator clears a doubt once it has dropped the namespace's entries.
 */
export class CacheTrust {
  /** Namespace → the number of its latest doubt, so a drop clears only the doubts it covered. */
  private readonly doubts = new Map<string, number>();
  private held: ReadonlySet<string> = new Set();
  private count = 0;

  /** Whether entries of `namespace` may be served and stored. */
  trusts(namespace: string): boolean {
    return !this.doubts.has(namespace) && !this.held.has(namespace);
  }

  /** Whether `namespace` waits to be dropped whole. */
  isInDoubt(namespace: string): boolean {
    return this.doubts.has(namespace);
  }

  /** Stops serving `namespace` until `clear` is called with the returned mark (or a later one). */
  doubt(namespace: string): number {
    this.count++;
    this.doubts.set(namespace, this.count);
    return this.count;
  }

  /** The namespaces in doubt, each with the mark of its latest doubt. */
  doubted(): Array<[namespace: string, mark: number]> {
    return [...this.doubts];
  }

  /** Clears the doubt on `namespace` unless a newer one came after `mark`. */
  clear(namespace: string, mark: number): void {
    if (this.doubts.get(namespace) === mark) this.doubts.delete(namespace);
  }

  get inDoubt(): number {
    return this.doubts.size;
  }

  /** Holds these namespaces (all that events can invalidate) while events may be missed. */
  hold(namespaces: ReadonlySet<string>): void {
    this.held = namespaces;
  }

  release(): void {
    this.held = new Set();
  }
}
