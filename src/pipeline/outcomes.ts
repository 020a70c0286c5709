import { isObject } from "../common/guards.js";

/**
 * The typed values stages hand each other besides plain results. The pipeline owns them,
 * so a capability that makes one (pagination makes pages) and one that reads it (the
 * budget shrinks pages, spilling stores them) never import each other.
 */

/**
 * One page of a paginated result: its items, whether more follow, and how to continue
 * after any of them. Serializes to the contract's envelope `{ items, nextCursor, hasMore,
 * count, … }`.
 */
export abstract class ResultPage<T = unknown> {
  abstract readonly items: readonly T[];
  /** True when items exist after the last one returned. */
  abstract readonly hasMore: boolean;

  get count(): number {
    return this.items.length;
  }

  /** The cursor of the next page, or null on the last one. */
  abstract get nextCursor(): string | null;
  /** The first `n` items; the next page then starts right after the last of them. */
  abstract prefix(n: number): ResultPage<T>;
  /** The cursor that continues after item `index` (to skip an item too large to return). */
  abstract cursorAfter(index: number): string | null;
  /** The envelope sent to the client. */
  abstract toJSON(): Record<string, unknown>;

  /**
   * How the items read in the text a tool answers with: `undefined` for the default (a
   * table, or their JSON when that counts fewer tokens), one line per item
   * (`@Paginated({ line })`), or `"links"`: not in the text at all, each item following
   * as a `resource_link` block. `structuredContent` carries the envelope whatever this says.
   */
  get itemText(): readonly string[] | "links" | undefined {
    return undefined;
  }

  /**
   * Envelope fields the text leaves out because the items (or another field) already say
   * them (a stream chunk's `first` and `last`, the keys of its first and last items).
   * `structuredContent` carries them whatever this says.
   */
  get textLeavesOut(): readonly string[] {
    return [];
  }
}

/**
 * A result over its token limit that a later stage may still serve another way (a capability
 * with `servesOversized` stores it as a resource). A stage that cannot serve it must not let
 * it reach the shape stage, which refuses it.
 */
export class Oversized {
  constructor(
    /** The value as the handler (or pagination) produced it. */
    readonly value: unknown,
    /** The size of the whole value in tokens (estimated when counting stopped early). */
    readonly tokens: number,
    /** The call's token limit it is over. */
    readonly limit: number,
  ) {}
}

/** A result that reports a failure the model can act on (`isError: true`); never paged, cached or spilled. */
export function isErrorResult(value: unknown): boolean {
  return isObject(value) && value.isError === true;
}
