import type { InjectionToken } from "tsyringe";
import type { Clock } from "../clock/clock.js";
import type { AggregateBounds } from "../metadata/definitions.js";
import type { TokenCounter } from "../tokenizer/token-counter.js";
import type { CursorCodec } from "./cursor-codec.js";
import type { TailPolls } from "./tail-polls.js";

/** What the app gives `@Paginated`'s two stages (`decodeCursor` and `paginate`), once per app. */
export interface PaginationStageDeps {
  /** Signs (and encrypts, if asked) the cursors one stage hands out and the other opens. */
  readonly cursors: CursorCodec;
  readonly clock: Clock;
  /** Where each tail's answers ended, for the next poll: `paginate` fills it, `decodeCursor` reads it. */
  readonly tails: TailPolls;
  /** The app's aggregate bounds (`aggregate` option), for the `aggregate` input of paged tools. */
  readonly aggregate: AggregateBounds | undefined;
  /** Counts an aggregate answer's text, to fit its groups to the call's budget. */
  readonly counter: TokenCounter | undefined;
}

/** What the app gives the pagination stages (`CapabilityServices.resolve(PAGINATION_STAGES)`). */
export const PAGINATION_STAGES: InjectionToken<PaginationStageDeps> = Symbol.for(
  "frugal-mcp.PAGINATION_STAGES",
);
