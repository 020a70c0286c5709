import type { Clock } from "../clock/clock.js";
import { canonicalJson } from "../common/canonical-json.js";
import { invalidParams } from "../errors/protocol-errors.js";
import type { CapabilityOperation, CapabilityStageFunction, OperationKind } from "../pipeline/capability.js";
import { type Invocation, invocationOf, type Stage } from "../pipeline/invocation.js";
import { toolError } from "../results/tool-error.js";
import { adaptiveLimit, FIRST_PAGE, readProgress, type WalkProgress } from "./adaptive-pages.js";
import { type CursorBinding, type CursorCodec, CursorError } from "./cursor-codec.js";
import type { KeyValue } from "./cursor-values.js";
import { AGGREGATE, type AggregateRequest, PAGE } from "./page-context.js";
import { CONTINUATION, PAGE_REQUEST } from "./page-request.js";
import { addsFieldsInput } from "./pagination-schemas.js";
import type { PaginationSpec } from "./pagination-spec.js";
import type { PaginationStageDeps } from "./pagination-stage-deps.js";
import { describeKeySpec } from "./stable-key.js";
import { BoundError, parseBound, resolveWindow, type StreamWindow } from "./stream-window.js";
import { type TailKey, type TailPolls, tailOf } from "./tail-polls.js";

/**
 * Under `@Paginated`: checks and decodes the `cursor` input, clamps `limit` (under
 * `adaptive`, grows it when the client left it out: see `adaptiveLimit`), resolves a
 * stream's `since`/`until` range, and hands the page to the handler as `ctx.page`. A
 * cursor is bound to the operation, its input without `cursor`/`limit` (and `fields` where
 * pagination adds it: a tool's, under the `fields` option), the key spec and the principal; anything else is refused with a message telling the client to
 * start again without a cursor.
 *
 * A time window's first page whose `since` is where this caller's last answer of the same
 * tail ended (`deps.tails`, filled by the `paginate` stage) is a tail poll: it goes on with
 * that walk (it reports `CONTINUATION`; an adaptive walk keeps its growth).
 */
export function cursorDecoderFor(
  spec: PaginationSpec,
  operation: CapabilityOperation,
  { cursors, clock, tails }: PaginationStageDeps,
): CapabilityStageFunction {
  const stage = decoder(spec, operation, cursors, clock, tails);
  return (call, next) => stage(invocationOf(call), next);
}

function decoder(
  spec: PaginationSpec,
  { kind, name: operation }: CapabilityOperation,
  cursors: CursorCodec,
  clock: Clock,
  tails: TailPolls,
): Stage {
  const keySpec = describeKeySpec({ fields: spec.stableKey, order: spec.order });
  // `fields` is pagination's input only where it adds one; elsewhere it is the operation's
  // own (a resource template's `{?fields}`, say) and goes to the handler and the cursor's binding.
  const addsFields = addsFieldsInput(spec, kind);
  return async (invocation, next) => {
    const { cursor, limit, fields: fieldsInput, ...others } = invocation.input as Record<string, unknown>;
    const rest = fieldsInput === undefined || addsFields ? others : { ...others, fields: fieldsInput };
    const fields = addsFields ? fieldsInput : undefined;
    const owner = invocation.ctx.owner;
    const refused = refusedCombination(rest, cursor, operation);
    if (refused !== undefined) return refuse(kind, refused);
    // A cursor goes on with the page it came from: `tail` only shapes a first page.
    const newest = typeof rest.tail === "number" && typeof cursor !== "string" ? rest.tail : undefined;
    const binding: CursorBinding = {
      operation,
      canonicalInput: canonicalJson(rest),
      keySpec,
      keyFields: spec.stableKey,
      principal: owner.startsWith("principal:") ? owner : null,
    };
    const tail = spec.stream?.window === undefined ? undefined : tailKey(owner, operation, rest);
    let opened: OpenedPage;
    try {
      opened =
        typeof cursor === "string"
          ? openCursor(cursors, cursor, binding, spec)
          : firstPage(invocation, rest, spec, clock.now(), tails, tail);
    } catch (error) {
      return refuseOpening(kind, operation, error);
    }
    const page = {
      after: opened.after,
      limit: Math.min(pageSize(spec, newest, limit, opened.progress), spec.maxLimit),
      fields: spec.fields
        ? ((fields as string[] | undefined) ?? spec.defaultFields ?? spec.fields)
        : undefined,
    };
    PAGE_REQUEST.set(invocation, {
      ...page,
      binding,
      window: opened.window,
      progress: opened.progress,
      tail,
      newest,
    });
    keyCacheByPage(invocation, page, opened, newest, rest.aggregate);
    PAGE.set(invocation, {
      ...page,
      cursor: typeof cursor === "string" ? cursor : null,
      ...(opened.window ? { since: opened.window.since, until: opened.window.until } : {}),
      ...(newest === undefined ? {} : { tail: newest }),
    });
    if (rest.aggregate !== undefined) AGGREGATE.set(invocation, rest.aggregate as AggregateRequest);
    // The handler gets its own arguments; the page (and a stream's range) arrive through ctx.page.
    invocation.input = spec.stream ? withoutRange(rest) : withoutAggregate(rest);
    return next();
  };
}

/** Where a page starts, the stream range it reads, and how far an adaptive walk has come. */
interface OpenedPage {
  after: Record<string, KeyValue> | null;
  window: StreamWindow | undefined;
  progress: WalkProgress | undefined;
}

/** A bad cursor or range, refused with what to do; anything else is not the client's to fix. */
function refuseOpening(kind: OperationKind, operation: string, error: unknown) {
  if (error instanceof CursorError)
    return refuse(
      kind,
      `Invalid cursor: ${error.message}. Call ${operation} again without \`cursor\` to start from the first page.`,
    );
  if (error instanceof BoundError)
    return refuse(kind, `Invalid arguments for ${operation}: ${error.message}.`);
  throw error;
}

/**
 * The page's size: `tail: N`'s N, else the client's `limit` (that page's size), else the
 * spec's, grown under `adaptive` (only a page left to the server grows); `maxLimit` caps it.
 */
function pageSize(
  spec: PaginationSpec,
  newest: number | undefined,
  limit: unknown,
  progress: WalkProgress | undefined,
): number {
  if (newest !== undefined) return newest;
  if (typeof limit === "number") return limit;
  return progress ? adaptiveLimit(progress, spec.limit, spec.maxLimit) : spec.limit;
}

/**
 * What decides this page besides the input: the cache keys by it. Under `adaptive`, the
 * page's nextCursor carries the page count too, so a cached page serves the same count.
 * `tail` and `aggregate` reach the handler through ctx, not its input: the cache keys by them here.
 */
function keyCacheByPage(
  invocation: Invocation,
  page: { after: unknown; limit: number; fields: unknown },
  opened: OpenedPage,
  newest: number | undefined,
  aggregate: unknown,
): void {
  invocation.identity.push(page.after, page.limit, page.fields ?? null, opened.window ?? null);
  if (opened.progress) invocation.identity.push(opened.progress.pagesBefore);
  invocation.identity.push(newest ?? null, aggregate ?? null);
}

/** A stream's input without its range, `tail` and `aggregate`: the handler's own arguments. */
function withoutRange(input: Record<string, unknown>): Record<string, unknown> {
  const { since: _since, until: _until, tail: _tail, aggregate: _aggregate, ...own } = input;
  return own;
}

/** The input without `aggregate` (a plain page's own arguments). */
function withoutAggregate(input: Record<string, unknown>): Record<string, unknown> {
  if (!("aggregate" in input)) return input;
  const { aggregate: _aggregate, ...own } = input;
  return own;
}

/**
 * Inputs that do not go together, as the message refusing them: `tail` takes the newest
 * items, so it has no lower bound (`since`); an aggregate counts every item, so it has no
 * page to go on from (`cursor`) and no tail.
 */
function refusedCombination(input: Record<string, unknown>, cursor: unknown, operation: string) {
  const wrong = `Invalid arguments for ${operation}:`;
  if (input.tail !== undefined && input.since !== undefined && input.since !== null)
    return `${wrong} tail takes the newest items up to until and does not go with since. Call with tail (and until) alone, then poll with since = nextSince alone.`;
  if (input.aggregate === undefined) return undefined;
  if (typeof cursor === "string")
    return `${wrong} aggregate counts every item the other inputs select and does not go with cursor. Call again without cursor.`;
  if (input.tail !== undefined)
    return `${wrong} aggregate does not go with tail: narrow it with since and until instead.`;
  return undefined;
}

/** The tail a call follows: its owner, operation and input without the range (nor `cursor`, `limit`, pagination's `fields`, `tail`, `aggregate`). */
function tailKey(owner: string, operation: string, input: Record<string, unknown>): TailKey {
  return tailOf(owner, operation, canonicalJson(withoutRange(input)));
}

/** The walk a first page goes on with, when its `since` is where this tail's last answer ended. */
function resumedWalk(tails: TailPolls, tail: TailKey, since: unknown): WalkProgress | undefined {
  const bound = parseBound(since, "since");
  return bound === null ? undefined : tails.resumed(tail, bound);
}

function openCursor(
  cursors: CursorCodec,
  cursor: string,
  binding: CursorBinding,
  spec: PaginationSpec,
): OpenedPage {
  const { after, state } = cursors.open(cursor, binding);
  const window = spec.stream ? { since: asBound(state.s), until: asBound(state.u) } : undefined;
  return { after, window, progress: spec.adaptive ? readProgress(state, spec.limit) : undefined };
}

/**
 * A first page: the stream range it asks for (checked), and, for a time window whose
 * `since` is where this tail's last answer ended, the walk it goes on with (a tail poll,
 * reported as a continuation, as through a cursor).
 */
function firstPage(
  invocation: Invocation,
  input: Record<string, unknown>,
  spec: PaginationSpec,
  now: number,
  tails: TailPolls,
  tail: TailKey | undefined,
): OpenedPage {
  const window = spec.stream ? resolveWindow(input.since, input.until, spec.stream, now) : undefined;
  const opened: OpenedPage = { after: null, window, progress: spec.adaptive ? FIRST_PAGE : undefined };
  const resumed = tail === undefined ? undefined : resumedWalk(tails, tail, input.since);
  if (resumed) {
    CONTINUATION.set(invocation.outcome, true);
    if (spec.adaptive) opened.progress = resumed;
  }
  return opened;
}

function asBound(value: KeyValue | undefined): number | Date | null {
  return typeof value === "number" || value instanceof Date ? value : null;
}

function refuse(kind: OperationKind, message: string) {
  if (kind === "tool") return toolError(message);
  throw invalidParams(message);
}
