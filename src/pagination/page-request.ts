import { OutcomeKey } from "../pipeline/call-outcome.js";
import { InvocationSlot } from "../pipeline/invocation.js";
import type { WalkProgress } from "./adaptive-pages.js";
import type { CursorBinding } from "./cursor-codec.js";
import type { KeyValue } from "./cursor-values.js";
import type { StreamWindow } from "./stream-window.js";
import type { TailKey } from "./tail-polls.js";

/** A decoded page request: where to start, how many, which fields, and what cursors bind to. */
export interface PageRequest {
  readonly after: Readonly<Record<string, KeyValue>> | null;
  readonly limit: number;
  readonly fields: readonly string[] | undefined;
  readonly binding: CursorBinding;
  /** For stream chunks: the range of the first key field this walk covers. */
  readonly window: StreamWindow | undefined;
  /** Under `adaptive: true`: how far the walk has come, for the next page's cursor. */
  readonly progress: WalkProgress | undefined;
  /** For time windows: the tail this call follows, where its `nextSince` is remembered. */
  readonly tail: TailKey | undefined;
  /** A stream's first page asked for its newest N items (`tail: N`). */
  readonly newest: number | undefined;
}

/**
 * Reported (true) when the call goes on with a walk without a cursor: a stream polled from
 * where the caller's last answer ended (`since = nextSince`). Counted with the calls that pass one.
 */
export const CONTINUATION = new OutcomeKey<boolean>("pagination.continuation");

/** Where the `decodeCursor` stage leaves the request for the `paginate` stage. */
export const PAGE_REQUEST = new InvocationSlot<PageRequest>("pagination.request");
