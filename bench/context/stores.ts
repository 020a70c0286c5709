import type { ContextData, Issue, LogLine } from "./data.js";

/** Newest update first; the id breaks ties (as the `["updatedAt", "id"]` key does, descending). */
export function newestFirst(a: Issue, b: Issue): number {
  return a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : b.id - a.id;
}

/** The issues of a run, with the filtered, ordered views the servers page through (built once per filter). */
export class IssueStore {
  private readonly views = new Map<string, readonly Issue[]>();

  constructor(readonly data: ContextData) {}

  get(id: number): Issue | undefined {
    return this.data.issues[id - 1];
  }

  /** Issues matching the filters, by id. */
  byId(state?: string, label?: string): readonly Issue[] {
    return this.view(`id:${state}:${label}`, () =>
      this.data.issues.filter(
        (issue) =>
          (state === undefined || issue.state === state) &&
          (label === undefined || issue.labels.includes(label)),
      ),
    );
  }

  /** Issues matching the filters, most recently updated first. */
  newest(state?: string, label?: string): readonly Issue[] {
    return this.view(`new:${state}:${label}`, () => [...this.byId(state, label)].sort(newestFirst));
  }

  private view(key: string, make: () => readonly Issue[]): readonly Issue[] {
    const known = this.views.get(key);
    if (known) return known;
    const view = make();
    this.views.set(key, view);
    return view;
  }
}

/**
 * The log of a run: the generated lines, and the 50 that `arrive()` appends (the tail
 * task's "new lines"), so each server instance has its own log to grow.
 */
export class LogStore {
  readonly lines: LogLine[];

  constructor(private readonly data: ContextData) {
    this.lines = [...data.logs];
  }

  arrive(): void {
    this.lines.push(...this.data.newLogs);
  }

  /** Lines with `since < at <= until` (either may be null), oldest first. */
  range(since: number | null, until: number | null): LogLine[] {
    const from = since === null ? 0 : this.firstAfter(since);
    const to = until === null ? this.lines.length : this.firstAfter(until);
    return this.lines.slice(from, to);
  }

  /** Lines containing `text` (case-sensitive) in their text form, oldest first. */
  search(text: string, format: (line: LogLine) => string): LogLine[] {
    return this.lines.filter((line) => format(line).includes(text));
  }

  /** Index of the first line with `at > ms` (binary search: lines are in time order). */
  firstAfter(ms: number): number {
    let low = 0;
    let high = this.lines.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if ((this.lines[mid] as LogLine).at <= ms) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}
