import { compareValues, type FieldPath, hasField, project, sortValue } from "../aggregate/query-fields.js";
import { itemAt as elementAt } from "../common/guards.js";
import type { StoredResourceMeta } from "../storage/storage.js";
import { readEntries, type StoredContent } from "./entry-reader.js";
import { type ScanBounds, type ScanEnd, scanEntries } from "./query-scan.js";
import type { OrderKey } from "./query-spec.js";
import { TopK } from "./top-k.js";
import type { ItemMatcher } from "./where-matcher.js";

/** What a scan reads and how it judges each item. */
export interface ScanSource {
  readonly content: StoredContent;
  readonly meta: StoredResourceMeta;
  readonly bounds: ScanBounds;
  readonly match: ItemMatcher;
  readonly watch: FieldWatch;
  /** Fields kept of each item answered (undefined: whole items). */
  readonly select?: readonly FieldPath[] | undefined;
  /** Bytes of item JSON gathered for one answer at most: more than its budget could hold. */
  readonly readAhead: number;
}

/** An item answered, with its position in the resource (what a cursor continues after). */
export interface PickedItem {
  readonly position: number;
  readonly item: unknown;
}

/** Items of one page, and what the scan learned. */
export interface ItemsScan {
  readonly picked: PickedItem[];
  /** Items `where` matched among those scanned. */
  readonly total: number;
  /** True when matches follow the last item picked. */
  readonly hasMore: boolean;
  readonly end: ScanEnd;
}

/**
 * The first `limit` matches from `from` on, in resource order. With `counting` (a first
 * page) the scan goes on to count every match; otherwise it stops at the first match past
 * the page.
 */
export async function pageInOrder(
  source: ScanSource,
  from: number,
  limit: number,
  counting: boolean,
): Promise<ItemsScan> {
  const picked: PickedItem[] = [];
  let bytes = 0;
  let total = 0;
  let hasMore = false;
  const end = await scanEntries(source.content, source.meta, from, source.bounds, (text, position) => {
    const item = parse(text, source);
    if (!source.match(item)) return true;
    total++;
    if (!hasMore && picked.length < limit && bytes < source.readAhead) {
      picked.push({ position, item: source.select ? project(item, source.select) : item });
      bytes += text.length;
      return true;
    }
    hasMore = true;
    return counting;
  });
  return { picked, total, hasMore, end };
}

/** A candidate of an ordered page: its sort values and position; its JSON when short (else read again). */
interface Candidate {
  readonly key: unknown[];
  readonly position: number;
  readonly text: string | undefined;
}

/** Item JSON kept with a candidate at most; a longer item is read again by position if it wins. */
const KEEP_TEXT_CHARS = 4096;

/**
 * The `limit` least matches by `orderBy` (ties by position) after `after`, from a scan of
 * the whole resource that keeps only `limit + 1` candidates (a top-K pass: never the
 * resource in memory). Counts every match.
 */
export async function pageSorted(
  source: ScanSource,
  orderBy: readonly OrderKey[],
  after: PickedItem | undefined,
  limit: number,
): Promise<ItemsScan> {
  const compare = (a: Candidate, b: Candidate) => {
    for (let i = 0; i < orderBy.length; i++) {
      const order = compareValues(a.key[i], b.key[i]) * elementAt(orderBy, i).direction;
      if (order !== 0) return order;
    }
    return a.position - b.position;
  };
  const keyOf = (item: unknown) => orderBy.map(({ field, direction }) => sortValue(item, field, direction));
  const last = after && { key: keyOf(after.item), position: after.position, text: undefined };
  const top = new TopK<Candidate>(limit + 1, compare);
  let total = 0;
  const end = await scanEntries(source.content, source.meta, 0, source.bounds, (text, position) => {
    const item = parse(text, source);
    if (!source.match(item)) return true;
    total++;
    const candidate = { key: keyOf(item), position, text: text.length <= KEEP_TEXT_CHARS ? text : undefined };
    if (!last || compare(candidate, last) > 0) top.offer(candidate);
    return true;
  });
  const winners = top.sorted();
  const picked: PickedItem[] = [];
  let bytes = 0;
  for (const winner of winners.slice(0, limit)) {
    if (bytes >= source.readAhead) break;
    const text = winner.text ?? (await itemText(source, winner.position));
    const item: unknown = JSON.parse(text);
    picked.push({ position: winner.position, item: source.select ? project(item, source.select) : item });
    bytes += text.length;
  }
  return { picked, total, hasMore: winners.length > picked.length, end };
}

/** The item at `position`, parsed (a cursor's last item: what the next page continues after). */
export async function itemAt(
  content: StoredContent,
  meta: StoredResourceMeta,
  position: number,
): Promise<unknown | undefined> {
  if (position < 0 || position >= meta.total) return undefined;
  const [entry] = await readEntries(content, meta, position, position + 1);
  return entry && JSON.parse(entry.text);
}

async function itemText(source: ScanSource, position: number): Promise<string> {
  const [entry] = await readEntries(source.content, source.meta, position, position + 1);
  if (!entry) throw new RangeError(`item ${position} is missing from ${source.meta.uri}`);
  return entry.text;
}

function parse(text: string, source: ScanSource): unknown {
  const item: unknown = JSON.parse(text);
  source.watch.see(item);
  return item;
}

/**
 * Which named fields no scanned item has: a field no item has is most likely misspelt,
 * and the model is told so rather than handed empty groups or items. Checks each field
 * only until an item has it, so the cost fades once all are seen.
 */
export class FieldWatch {
  private readonly pending: Array<{ field: FieldPath; part: string }>;
  /** Top-level keys of the first object item, to suggest the right names. */
  firstKeys: string[] | undefined;

  constructor(named: ReadonlyArray<{ field: FieldPath; part: string }>) {
    this.pending = [...named];
  }

  see(item: unknown): void {
    if (this.firstKeys === undefined && typeof item === "object" && item !== null && !Array.isArray(item))
      this.firstKeys = Object.keys(item);
    for (let i = this.pending.length - 1; i >= 0; i--) {
      if (hasField(item, elementAt(this.pending, i).field)) this.pending.splice(i, 1);
    }
  }

  /** The named fields no item seen so far has, with the parts that name them. */
  unseen(): ReadonlyArray<{ field: FieldPath; part: string }> {
    return this.pending;
  }
}
