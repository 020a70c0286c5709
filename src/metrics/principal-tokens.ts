/** Calls and tokens of one principal. */
export interface PrincipalTokensEntry {
  /** Calls that completed (answers and `isError` results alike). */
  calls: number;
  /** Tokens the model read of them, where a budget counted them. */
  tokensOut: number;
}

/** What `app.stats().principals` holds. */
export interface PrincipalStats {
  /** Per owner, as `ctx.owner` names it: `principal:<name>` (`authenticate`'s answer), or `session:<id>` when anonymous. */
  byPrincipal: Record<string, PrincipalTokensEntry>;
  /** Every owner past the first `MAX_PRINCIPALS` (`principals`: how many), counted together. */
  others: PrincipalTokensEntry & { principals: number };
}

/** Owners kept apart; a server with more (one per anonymous session) counts the rest together. */
const MAX_PRINCIPALS = 1_000;

/**
 * Tokens out per principal, bounded: the first `MAX_PRINCIPALS` owners are counted apart,
 * any other together, so a server with many anonymous sessions never grows its statistics
 * without bound.
 *
 * @example
 * ```ts
 * const tokens = new PrincipalTokens();
 * tokens.record("alice", 120);
 * tokens.stats().byPrincipal.alice; // { calls: 1, tokensOut: 120 }
 * ```
 */
export class PrincipalTokens {
  private readonly kept = new Map<string, PrincipalTokensEntry>();
  private readonly others = { calls: 0, tokensOut: 0 };
  private readonly otherOwners = new Set<string>();

  constructor(private readonly max = MAX_PRINCIPALS) {}

  /** One completed call of `owner`, with the tokens a budget counted (or none). */
  record(owner: string, tokens: number | undefined): void {
    let entry = this.kept.get(owner);
    if (!entry && this.kept.size < this.max) {
      entry = { calls: 0, tokensOut: 0 };
      this.kept.set(owner, entry);
    }
    if (!entry) {
      entry = this.others;
      // Counting the distinct others exactly would grow without bound: stop at the same cap.
      if (this.otherOwners.size < this.max) this.otherOwners.add(owner);
    }
    entry.calls++;
    entry.tokensOut += tokens ?? 0;
  }

  stats(): PrincipalStats {
    return {
      byPrincipal: Object.fromEntries([...this.kept].map(([owner, entry]) => [owner, { ...entry }])),
      others: { ...this.others, principals: this.otherOwners.size },
    };
  }
}
