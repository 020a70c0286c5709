import { describeQueryError, QueryError } from "../aggregate/query-errors.js";
import { compareValues } from "../aggregate/query-fields.js";
import { type Group, GroupTally } from "../aggregate/query-groups.js";
import { canonicalJson } from "../common/canonical-json.js";
import { itemAt as elementAt } from "../common/guards.js";
import { toolError } from "../results/tool-error.js";
import type { StoredResourceMeta } from "../storage/storage.js";
import { fitPrefix } from "../tokenizer/fit-prefix.js";
import type { TokenCounter } from "../tokenizer/token-counter.js";
import type { StoredContent } from "./entry-reader.js";
import {
  FieldWatch,
  type ItemsScan,
  itemAt,
  pageInOrder,
  pageSorted,
  type ScanSource,
} from "./query-items.js";
import { type ScanBounds, type ScanEnd, scanEntries } from "./query-scan.js";
import { planQuery, type QueryInput, type QueryPlan } from "./query-spec.js";
import { compileWhere } from "./where-matcher.js";

/** What a query cursor is bound to: it is refused for any other query, resource or principal. */
export interface QueryCursorBinding {
  readonly operation: string;
  readonly canonicalInput: string;
  readonly keySpec: string;
  /** The caller's owner; the codec binds a principal (never a session). */
  readonly owner: string;
}

/** Signs and checks query cursors: the app's cursor codec, adapted by the composition root. */
export interface QueryCursorCodec {
  issue(values: Readonly<Record<string, number>>, binding: QueryCursorBinding): string;
  /** The values of a valid cursor; throws `QueryCursorError` saying why otherwise. */
  read(token: string, binding: QueryCursorBinding): Record<string, unknown>;
}

/** A cursor refused: the message is safe to show. */
export class QueryCursorError extends Error {}

/** What a query needs from the app. */
export interface QueryDeps {
  readonly counter: TokenCounter;
  readonly cursors: QueryCursorCodec;
  readonly bounds: ScanBounds;
  readonly maxGroups: number;
  /** The tool's name, for cursors and messages. */
  readonly tool: string;
}

/** Items of a page when the client gives no `limit`; the budget may answer fewer. */
export const DEFAULT_QUERY_LIMIT = 50;
const READ_AHEAD_BYTES = 256 * 1024;
const READ_AHEAD_BYTES_PER_TOKEN = 16;

/**
 * Runs `query_resource` over a located JSON array: checks the query, compiles `where`,
 * then answers a page of items (`{ items, total, nextCursor?, hasMore }`) or the groups
 * (`{ groups, total, scanned }`), from one bounded, streamed scan, held to `budget`.
 */
export async function queryResource(
  input: QueryInput,
  meta: StoredResourceMeta,
  content: StoredContent,
  owner: string,
  budget: number,
  deps: QueryDeps,
) {
  try {
    if (meta.kind !== "json-array") return notAnArray(input.uri, meta, deps.tool);
    const plan = planQuery(input);
    const match = await compileWhere(plan.where);
    const watch = new FieldWatch([
      ...plan.named,
      ...plan.where.fields.map((field) => ({ field, part: `where.${field.path}` })),
    ]);
    const readAhead = Math.max(READ_AHEAD_BYTES, budget * READ_AHEAD_BYTES_PER_TOKEN);
    const source: ScanSource = {
      content,
      meta,
      bounds: deps.bounds,
      match,
      watch,
      select: plan.select,
      readAhead,
    };
    const run = new QueryRun(input, plan, source, owner, budget, deps);
    return plan.groups ? await run.groups() : await run.items();
  } catch (error) {
    if (error instanceof QueryError) return toolError(describeQueryError(error));
    if (error instanceof QueryCursorError)
      return toolError(
        `Invalid cursor: ${error.message}. Call ${deps.tool} again without \`cursor\` to start from the first page.`,
      );
    throw error;
  }
}

class QueryRun {
  constructor(
    private readonly input: QueryInput,
    private readonly plan: QueryPlan,
    private readonly source: ScanSource,
    private readonly owner: string,
    private readonly budget: number,
    private readonly deps: QueryDeps,
  ) {}

  async items() {
    const { input, plan, source } = this;
    const limit = input.limit ?? DEFAULT_QUERY_LIMIT;
    const state = input.cursor === undefined ? undefined : this.openCursor(input.cursor);
    let scan: ItemsScan;
    let total: number;
    let partialTotal: boolean;
    if (plan.orderBy.length > 0) {
      const last = state && (await itemAt(source.content, source.meta, state.p));
      if (state && last === undefined) throw new QueryCursorError("the cursor points past the resource");
      scan = await pageSorted(source, plan.orderBy, state && { position: state.p, item: last }, limit);
      total = scan.total;
      partialTotal = scan.end.bound !== undefined;
    } else {
      scan = await pageInOrder(source, state ? state.p + 1 : 0, limit, !state);
      total = state ? state.t : scan.total;
      partialTotal = state ? state.q === 1 : scan.end.bound !== undefined;
    }
    const unknown = state ? undefined : this.unknownFields(scan.end, total);
    if (unknown) return unknown;
    const { picked, end } = scan;
    // Where the page after the first n picked items starts: after the last one shown, or,
    // when the scan stopped at a bound before the page filled, after the last item scanned.
    const nextAfter = (n: number): number | undefined => {
      if (n < picked.length || scan.hasMore) return n > 0 ? elementAt(picked, n - 1).position : undefined;
      if (end.bound !== undefined && end.next !== null && plan.orderBy.length === 0) return end.next - 1;
      return undefined;
    };
    const hint = this.scanHint(end, partialTotal, plan.orderBy.length > 0);
    const answer = (n: number) => {
      const after = nextAfter(n);
      const nextCursor = after === undefined ? undefined : this.issue(after, total, partialTotal);
      return {
        items: picked.slice(0, n).map((p) => p.item),
        total,
        ...(nextCursor === undefined ? {} : { nextCursor }),
        hasMore: nextCursor !== undefined,
        ...(partialTotal ? { partial: true as const, scanned: end.scanned } : {}),
        ...(hint === undefined ? {} : { hint }),
      };
    };
    const fitted = await fitPrefix(
      picked.length,
      (n) => JSON.stringify(answer(n)),
      this.budget,
      this.deps.counter,
    );
    const first = picked[0];
    if (fitted.n > 0 || !first) return answer(fitted.n);
    // One item alone is over the budget: skip it, say so, and go on after it.
    const alone = await this.deps.counter.count(JSON.stringify(first.item), this.budget);
    const nextCursor = this.issue(first.position, total, partialTotal);
    return {
      ...answer(0),
      nextCursor,
      hasMore: true,
      skipped: { position: first.position, tokens: alone.tokens, budget: this.budget },
    };
  }

  async groups() {
    const { plan, source } = this;
    const spec = { ...(plan.groups as NonNullable<QueryPlan["groups"]>), maxGroups: this.deps.maxGroups };
    const tally = new GroupTally(spec);
    let total = 0;
    const end = await scanEntries(source.content, source.meta, 0, source.bounds, (text) => {
      const item: unknown = JSON.parse(text);
      source.watch.see(item);
      if (!source.match(item)) return true;
      total++;
      tally.add(item);
      return true;
    });
    const unknown = this.unknownFields(end, total);
    if (unknown) return unknown;
    const counted = tally.groups();
    const groups = this.ordered(counted.groups);
    const scanHint = this.scanHint(end, end.bound !== undefined, false);
    const answer = (n: number) => {
      const cut = n < groups.length;
      const partial = counted.partial || end.bound !== undefined || cut;
      const hints = [
        scanHint,
        counted.partial
          ? `More than ${this.deps.maxGroups} groups (aggregate.maxGroups): only the largest are kept, and their counts may be low.`
          : undefined,
        cut
          ? `${n} of ${groups.length} groups fit the token budget: use aggregate.top to ask for the largest, or narrow where.`
          : undefined,
      ].filter((h) => h !== undefined);
      return {
        groups: groups.slice(0, n),
        total,
        scanned: end.scanned,
        ...(partial ? { partial: true as const } : {}),
        ...(hints.length > 0 ? { hint: hints.join(" ") } : {}),
      };
    };
    const fitted = await fitPrefix(
      groups.length,
      (n) => JSON.stringify(answer(n)),
      this.budget,
      this.deps.counter,
    );
    return answer(fitted.n);
  }

  /** Groups in the order `orderBy` asks (they come largest first). */
  private ordered(groups: Group[]): Group[] {
    const { orderBy } = this.plan;
    if (orderBy.length === 0) return groups;
    const groupValue = (group: Group, path: string): unknown =>
      Object.hasOwn(group.key, path) ? group.key[path] : (group as unknown as Record<string, unknown>)[path];
    return [...groups].sort((a, b) => {
      for (const { field, direction } of orderBy) {
        const order = compareValues(groupValue(a, field.path), groupValue(b, field.path)) * direction;
        if (order !== 0) return order;
      }
      return 0;
    });
  }

  /**
   * An error naming the fields no scanned item has (a `where` field only when nothing
   * matched: `{ deletedAt: { $exists: false } }` may rightly name a field no item has),
   * with the fields the items do have. Only after a scan of the whole resource.
   */
  private unknownFields(end: ScanEnd, total: number) {
    const { watch } = this.source;
    if (end.bound !== undefined || end.scanned === 0) return undefined;
    const unseen = watch.unseen().filter(({ part }) => !part.startsWith("where.") || total === 0);
    if (unseen.length === 0) return undefined;
    const names = unseen.map(({ field, part }) => `"${field.path}" (${part})`).join(", ");
    const known = watch.firstKeys
      ? ` Fields of the first item: ${watch.firstKeys.slice(0, 40).join(", ")}${watch.firstKeys.length > 40 ? ", …" : ""}.`
      : "";
    return toolError(
      `Unknown field ${names}: none of the ${end.scanned} items of ${this.input.uri} has it.${known} Fields are dotted paths such as "author.login".`,
    );
  }

  private scanHint(end: ScanEnd, partialTotal: boolean, ordered: boolean): string | undefined {
    // A later page of an unordered walk carries the first page's total: its own scan only pages on.
    if (!ordered && this.input.cursor !== undefined) {
      const total = partialTotal ? " total counts only the items the first page scanned." : "";
      if (end.bound === undefined) return total ? total.trim() : undefined;
      return `This call's scan stopped ${end.bound} after ${end.scanned} items: go on with nextCursor for the rest.${total}`;
    }
    if (end.bound === undefined) return undefined;
    const what = ordered ? "the order and total cover" : "total covers";
    return `The scan stopped ${end.bound} after ${end.scanned} of ${this.source.meta.total} items: ${what} only those. Narrow where${ordered ? "" : ", or go on with nextCursor"}.`;
  }

  private binding() {
    const { input, plan } = this;
    return {
      operation: this.deps.tool,
      canonicalInput: canonicalJson({ uri: input.uri, where: input.where ?? {} }),
      keySpec: `query:${JSON.stringify(plan.orderBy.map((k) => [k.field.path, k.direction]))}`,
      owner: this.owner,
    };
  }

  private issue(after: number, total: number, partialTotal: boolean): string {
    const values: Record<string, number> = { p: after, v: this.source.meta.version };
    if (this.plan.orderBy.length === 0) values.t = total;
    if (partialTotal && this.plan.orderBy.length === 0) values.q = 1;
    return this.deps.cursors.issue(values, this.binding());
  }

  private openCursor(token: string): { p: number; t: number; q?: number } {
    const values = this.deps.cursors.read(token, this.binding());
    const { p, v, t, q } = values;
    if (typeof p !== "number" || !Number.isInteger(p) || p < -1)
      throw new QueryCursorError("the cursor is malformed");
    if (v !== this.source.meta.version)
      throw new QueryCursorError(`${this.input.uri} changed since the cursor was issued`);
    return { p, t: typeof t === "number" ? t : 0, ...(q === 1 ? { q } : {}) };
  }
}

function notAnArray(uri: string, meta: StoredResourceMeta, tool: string) {
  const what = meta.kind === "text" ? `text (${meta.total} lines)` : `binary (${meta.total} bytes)`;
  return toolError(
    `${tool} reads JSON arrays, and ${uri} is ${what}. Count or find lines with search_resource({ uri, pattern, count: true }), or read it with read_resource.`,
  );
}
