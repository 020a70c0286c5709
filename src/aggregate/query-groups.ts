import { compareValues, type FieldPath, valuesAt } from "./query-fields.js";

/** What to compute per group: `groupBy` fields, and the fields summed, averaged, or taken the least or greatest of. */
export interface GroupSpec {
  readonly groupBy: readonly FieldPath[];
  readonly sum?: FieldPath | undefined;
  readonly min?: FieldPath | undefined;
  readonly max?: FieldPath | undefined;
  readonly avg?: FieldPath | undefined;
  /** Keep the N groups with the highest count. */
  readonly top?: number | undefined;
  /** Groups kept at most (`aggregate.maxGroups`): past it the largest are kept and the answer is partial. */
  readonly maxGroups: number;
}

/** Groups one answer keeps at most by default (`aggregate.maxGroups`). */
export const DEFAULT_MAX_GROUPS = 1000;

/** One group of the answer. */
export interface Group {
  key: Record<string, unknown>;
  count: number;
  sum?: number;
  min?: unknown;
  max?: unknown;
  avg?: number | null;
}

interface Tally {
  readonly key: Record<string, unknown>;
  count: number;
  sum: number;
  min: unknown;
  max: unknown;
  avgSum: number;
  avgCount: number;
}

/** Key combinations one item adds to at most (array fields multiply): a hostile item cannot blow up a scan. */
const MAX_KEYS_PER_ITEM = 1000;

/**
 * Counts items into groups in bounded memory: at most twice `maxGroups` groups are held;
 * past that the smallest are dropped (and the answer says `partial`), so a `groupBy` on a
 * unique field costs no more than a bounded map. An array field counts once per element;
 * a missing field (or an empty array) is the key `null`.
 */
export class GroupTally {
  private readonly tallies = new Map<string, Tally>();
  /** Set when groups were dropped or an item had more key combinations than counted. */
  overflow = false;

  constructor(private readonly spec: GroupSpec) {}

  add(item: unknown): void {
    const { spec } = this;
    const sums = spec.sum ? numbers(item, spec.sum) : [];
    const avgs = spec.avg ? numbers(item, spec.avg) : [];
    const mins = spec.min ? comparable(item, spec.min) : [];
    const maxes = spec.max ? comparable(item, spec.max) : [];
    for (const values of this.keysOf(item)) {
      const id = JSON.stringify(values);
      let tally = this.tallies.get(id);
      if (!tally) {
        if (this.tallies.size >= this.spec.maxGroups * 2) this.prune();
        const key: Record<string, unknown> = {};
        spec.groupBy.forEach((field, i) => {
          Object.defineProperty(key, field.path, { value: values[i], enumerable: true, writable: true });
        });
        tally = { key, count: 0, sum: 0, min: undefined, max: undefined, avgSum: 0, avgCount: 0 };
        this.tallies.set(id, tally);
      }
      tally.count++;
      for (const n of sums) tally.sum += n;
      for (const n of avgs) tally.avgSum += n;
      tally.avgCount += avgs.length;
      for (const v of mins) if (tally.min === undefined || compareValues(v, tally.min) < 0) tally.min = v;
      for (const v of maxes) if (tally.max === undefined || compareValues(v, tally.max) > 0) tally.max = v;
    }
  }

  /** The groups, largest first (ties by key), cut to `top` and `maxGroups`. */
  groups(): { groups: Group[]; partial: boolean } {
    const sorted = [...this.tallies.values()].sort(byCount);
    const keep = Math.min(this.spec.top ?? Number.POSITIVE_INFINITY, this.spec.maxGroups);
    const partial = this.overflow || (sorted.length > this.spec.maxGroups && keep === this.spec.maxGroups);
    return { groups: sorted.slice(0, keep).map((tally) => this.groupOf(tally)), partial };
  }

  private groupOf(tally: Tally): Group {
    const group: Group = { key: tally.key, count: tally.count };
    if (this.spec.sum) group.sum = tally.sum;
    if (this.spec.min) group.min = tally.min ?? null;
    if (this.spec.max) group.max = tally.max ?? null;
    if (this.spec.avg) group.avg = tally.avgCount === 0 ? null : tally.avgSum / tally.avgCount;
    return group;
  }

  /** Every combination of the item's `groupBy` values (one per element of an array field). */
  private keysOf(item: unknown): unknown[][] {
    let keys: unknown[][] = [[]];
    for (const field of this.spec.groupBy) {
      const values = distinct(valuesAt(item, field));
      const options = values.length === 0 ? [null] : values;
      const next: unknown[][] = [];
      for (const key of keys) {
        for (const value of options) {
          if (next.length === MAX_KEYS_PER_ITEM) {
            this.overflow = true;
            break;
          }
          next.push([...key, value]);
        }
      }
      keys = next;
    }
    return keys;
  }

  /** Keeps the `maxGroups` largest groups: the rest are gone, and the answer will say it is partial. */
  private prune(): void {
    const sorted = [...this.tallies.entries()].sort((a, b) => byCount(a[1], b[1]));
    for (const [id] of sorted.slice(this.spec.maxGroups)) this.tallies.delete(id);
    this.overflow = true;
  }
}

/**
 * Groups counted elsewhere (a handler's `GROUP BY`) in the order and cut of
 * `GroupTally.groups()`: largest first, ties by key, at most `top` and `maxGroups`, with each
 * key's fields in `groupBy` order, so a pushed-down answer reads like a counted one.
 *
 * @example
 * ```ts
 * sortGroups([{ key: { s: "b" }, count: 1 }, { key: { s: "a" }, count: 3 }], spec); // a first
 * ```
 */
export function sortGroups(groups: readonly Group[], spec: GroupSpec): { groups: Group[]; partial: boolean } {
  const ordered = groups.map((group) => {
    const key: Record<string, unknown> = {};
    for (const field of spec.groupBy) {
      const value = Object.hasOwn(group.key, field.path) ? group.key[field.path] : null;
      Object.defineProperty(key, field.path, { value, enumerable: true, writable: true });
    }
    return { ...group, key };
  });
  ordered.sort(byCount);
  const keep = Math.min(spec.top ?? Number.POSITIVE_INFINITY, spec.maxGroups);
  const partial = ordered.length > spec.maxGroups && keep === spec.maxGroups;
  return { groups: ordered.slice(0, keep), partial };
}

function byCount(a: Pick<Tally, "key" | "count">, b: Pick<Tally, "key" | "count">): number {
  if (a.count !== b.count) return b.count - a.count;
  const x = JSON.stringify(Object.values(a.key));
  const y = JSON.stringify(Object.values(b.key));
  return x < y ? -1 : x > y ? 1 : 0;
}

/** An element listed twice in one array counts its item once in that group. */
function distinct(values: unknown[]): unknown[] {
  if (values.length < 2) return values;
  const seen = new Set<string>();
  return values.filter((value) => {
    const id = JSON.stringify(value) ?? "null";
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

function numbers(item: unknown, field: FieldPath): number[] {
  return valuesAt(item, field).filter((v): v is number => typeof v === "number" && Number.isFinite(v));
}

/** Values min and max compare: numbers and strings (ISO dates); null and structures are left out. */
function comparable(item: unknown, field: FieldPath): unknown[] {
  return valuesAt(item, field).filter((v) => typeof v === "number" || typeof v === "string");
}
