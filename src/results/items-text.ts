import type { TokenCounter } from "../tokenizer/token-counter.js";
import type { JsonObject, JsonValue } from "./json-value.js";
import { type WrittenTable, writeObjectLines, writeTable } from "./table-format.js";

/**
 * How a tool's text reads: `"auto"` (a table when it costs fewer tokens than JSON), `"json"`,
 * or `"compact"` (as `"auto"`, and a flat object as `key=value` lines when they cost fewer).
 */
type TextMode = "auto" | "json" | "compact";

/** What choosing between a table and JSON needs: the app's counter and where counting may stop. */
interface TextChoice {
  readonly counter: TokenCounter;
  /** The call's budget (or a default): no count goes much past it, whatever the items' size. */
  readonly limit: number;
}

// A JSON text cut after an item may count a token or two less than the same items in the
// whole text (the cut splits a run of punctuation such as `"},{"`): the margin a cut text
// must pass the table by before it proves the whole JSON costs more.
const CUT_MARGIN = 2;
// Characters of JSON counted first, per token of the table: o200k reads JSON at 3–5
// characters a token, so this many nearly always passes the table's count when JSON costs more.
const CHARS_PER_TOKEN = 6;

/** How a tool's text is rendered: the mode, and what choosing needs under `"auto"`. */
export interface TextRendering extends TextChoice {
  readonly mode: TextMode;
}

/**
 * The text of a list of items, then `suffix` (a page's envelope line): a table
 * (`writeTable`) when that text counts fewer tokens than the items' minified JSON with the
 * same suffix, else that JSON. Decided by counting, at O(limit) cost: the table's text is
 * counted first (stopping past `limit`), then the JSON only until it passes the table's
 * count, written item by item only as far as that needs. A table over `limit` is compared on
 * its leading rows that were counted, against the JSON of the same items: per row, a
 * table's cost does not change with the number of rows. The table's text is counted as it is
 * sent, so a budget that counts it next finds the count in the counter's memo.
 *
 * @example
 * ```ts
 * await itemsText([{ id: 1, name: "a" }, { id: 2, name: "b" }], { counter, limit: 2000 }); // "id\tname\n1\ta\n2\tb"
 * ```
 */
export async function itemsText(
  items: readonly JsonValue[],
  choice: TextChoice,
  suffix = "",
): Promise<string> {
  const table = items.length > 0 ? writeTable(items) : undefined;
  const json = new JsonOfItems(items, suffix);
  if (!table) return json.whole();
  return (await tableIsCheaper(table, json, choice, suffix)) ? table.text + suffix : json.whole();
}

/**
 * The text of one object: its `key=value` lines (`writeObjectLines`) when it is flat and
 * that text counts fewer tokens than its minified JSON, else that JSON. Decided by counting
 * at O(limit) cost: the lines are counted first (stopping past `limit`; lines over it keep
 * JSON, whose size the budget then judges), then the JSON only up to the lines' count.
 *
 * @example
 * ```ts
 * await objectText({ title: "Crash on start", state: "open" }, { counter, limit: 2000 }); // "title=Crash on start\nstate=open"
 * ```
 */
export async function objectText(object: JsonObject, choice: TextChoice): Promise<string> {
  const json = JSON.stringify(object);
  const lines = writeObjectLines(object);
  if (lines === undefined) return json;
  const { counter, limit } = choice;
  const counted = await counter.count(lines, limit);
  if (!counted.exact) return json;
  const jsonCount = await counter.count(json, counted.tokens);
  return jsonCount.tokens > counted.tokens ? lines : json;
}

async function tableIsCheaper(table: WrittenTable, json: JsonOfItems, choice: TextChoice, suffix: string) {
  const { counter, limit } = choice;
  const counted = await counter.count(table.text + suffix, limit);
  if (counted.exact) return json.costsMoreThan(json.length, counted.tokens, counter);
  // Over the limit: the rows counted stand for the rest (at least one, to compare something).
  const covered = counted.consumed ?? limit * 4;
  let rows = 1;
  while (rows + 1 < table.lineEnds.length && (table.lineEnds[rows + 1] as number) <= covered) rows++;
  const leading = await counter.count(table.text.slice(0, table.lineEnds[rows]), limit * 2);
  return json.costsMoreThan(rows, leading.tokens, counter, false);
}

/** The minified JSON of a list of items, written one item at a time, only as far as it is read. */
class JsonOfItems {
  private readonly parts: string[] = [];
  private chars = 1;

  constructor(
    private readonly items: readonly JsonValue[],
    /** What follows the JSON of all the items in the text sent. */
    private readonly suffix: string,
  ) {}

  get length(): number {
    return this.items.length;
  }

  /** `JSON.stringify(items)` and the suffix, reusing the items already written. */
  whole(): string {
    if (this.parts.length === 0) return JSON.stringify(this.items) + this.suffix;
    this.writeUpTo(this.items.length, Number.POSITIVE_INFINITY);
    return `[${this.parts.join(",")}]${this.suffix}`;
  }

  /**
   * True when the JSON of the first `n` items (with the suffix, when `withSuffix` and they
   * are all the items) counts more than `tokens`. Counts a leading part of it first (about
   * `tokens × CHARS_PER_TOKEN` characters, then four times more), so deciding that JSON
   * costs more rarely writes or counts much past the table's size.
   */
  async costsMoreThan(n: number, tokens: number, counter: TokenCounter, withSuffix = true): Promise<boolean> {
    let chars = (tokens + CUT_MARGIN) * CHARS_PER_TOKEN;
    for (;;) {
      const written = this.writeUpTo(n, chars);
      const complete = written === n;
      const end = complete ? `]${withSuffix && n === this.items.length ? this.suffix : ""}` : "";
      const text = `[${this.parts.slice(0, written).join(",")}${end}`;
      const counted = await counter.count(text, tokens + (complete ? 0 : CUT_MARGIN));
      if (counted.tokens > tokens + (complete ? 0 : CUT_MARGIN)) return true;
      if (complete) return false;
      chars *= 4;
    }
  }

  /** Writes items until `n` are written or their text reaches `chars`; returns how many are. */
  private writeUpTo(n: number, chars: number): number {
    while (this.parts.length < n && this.chars < chars) {
      const part = JSON.stringify(this.items[this.parts.length]) ?? "null";
      this.parts.push(part);
      this.chars += part.length + 1;
    }
    if (this.parts.length >= n) return n;
    return this.parts.length;
  }
}
