/** How many owners the catalogue remembers revealed tools for; past it, the longest unused is forgotten. */
const MAX_REVEALED_OWNERS = 10_000;

/**
 * The tools `search_tools` returned to each owner (a session, or a principal on all its
 * sessions), which join that owner's `tools/list`. Bounded: the owner unused for longest is
 * forgotten first (its list shrinks back to the pinned tools; every tool stays callable).
 *
 * @example
 * ```ts
 * const revealed = new RevealedTools();
 * revealed.add("principal:alice", ["list_issues"]); // true: alice's list grew
 * revealed.has("principal:alice", "list_issues");   // true
 * ```
 */
export class RevealedTools {
  private readonly byOwner = new Map<string, Set<string>>();

  constructor(private readonly maxOwners = MAX_REVEALED_OWNERS) {}

  /** Adds `names` to the owner's list; true when at least one is new to it. */
  add(owner: string, names: readonly string[]): boolean {
    const known = this.touch(owner) ?? new Set<string>();
    const before = known.size;
    for (const name of names) known.add(name);
    if (known.size === before) return false;
    this.byOwner.set(owner, known);
    // Oldest first: a Map iterates in insertion order.
    for (const oldest of this.byOwner.keys()) {
      if (this.byOwner.size <= this.maxOwners) break;
      this.byOwner.delete(oldest);
    }
    return true;
  }

  has(owner: string, name: string): boolean {
    return this.byOwner.get(owner)?.has(name) ?? false;
  }

  /** Forgets an owner (its session ended). */
  forget(owner: string): void {
    this.byOwner.delete(owner);
  }

  /** The owner's set, moved to the most recently used end. */
  private touch(owner: string): Set<string> | undefined {
    const known = this.byOwner.get(owner);
    if (known) {
      this.byOwner.delete(owner);
      this.byOwner.set(owner, known);
    }
    return known;
  }
}
