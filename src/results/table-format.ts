// Over 300 lines on purpose: one text format, its writers and its readers side by side, so that a change to
// how a value is written and to how it is read back is made (and reviewed) in one place.
import type { JsonObject, JsonValue } from "./json-value.js";

/**
 * The text formats a model reads instead of JSON, written here and read back by
 * `readTable`. Chosen by measuring o200k tokens on realistic pages (README, "Lean answers"):
 * tab-separated cells cost 0.80–1.00× the same rows as CSV (a comma in a title or a JSON
 * cell forces quoting in CSV, never in TSV), and 0.65–0.80× minified JSON.
 *
 * - **Table**: a header line naming the fields, then one line per item; cells are separated
 *   by one tab. A cell reads back as the value it was written from: `null`, `true`, `false`
 *   and numbers as themselves, arrays and objects as compact JSON, a string as itself unless
 *   it would read as something else or break the layout (it holds a tab, a quote or a line
 *   break, is empty, or looks like `null`, a boolean, a number or JSON), and then as a
 *   JSON string literal (`"a\tb"`). A table never holds an empty line.
 * - **Envelope line**: `key=value` pairs separated by one space (`nextCursor=… hasMore=true
 *   total=57`), values written as cells are, with a space also forcing quotes. It follows the
 *   items after an empty line.
 * - **Object lines**: one flat object (each value a scalar or an array of scalars) as one
 *   `key=value` line per field (`title=Crash on start\nstate=open\nlabels=["bug"]`), values
 *   written as cells are, a line break forcing quotes; a key is quoted as a JSON string when
 *   it holds `=`, a quote or a line break, is empty, or would read as something else.
 */

/** Between the cells of a row. */
const TAB = "\t";
/** Between the pairs of an envelope line. */
const SPACE = " ";
/** Between the lines of object lines (what forces a value's quotes). */
const NEWLINE = "\n";

/** A table as written: its text, and where each line ends (to count a leading part of it). */
export interface WrittenTable {
  readonly text: string;
  /** `lineEnds[0]` is the end of the header, `lineEnds[r]` the end of row `r` (1-based). */
  readonly lineEnds: readonly number[];
}

/**
 * The items as a table, when they are uniform: one JSON object or more, each with the same
 * field names (in any order; the first item's order is used) and at least one field.
 * `undefined` otherwise (the items then read as JSON).
 *
 * @example
 * ```ts
 * writeTable([{ id: 1, title: "Hello, world" }])?.text; // "id\ttitle\n1\tHello, world"
 * ```
 */
export function writeTable(items: readonly JsonValue[]): WrittenTable | undefined {
  const first = items[0];
  if (!isObject(first)) return undefined;
  const fields = Object.keys(first);
  if (fields.length === 0) return undefined;
  let text = fields.map((field) => writeString(field, TAB)).join(TAB);
  const lineEnds = [text.length];
  for (const item of items) {
    if (!isObject(item) || !hasExactly(item, fields)) return undefined;
    let row = "";
    for (let f = 0; f < fields.length; f++) {
      if (f > 0) row += TAB;
      row += writeCell(item[fields[f] as string] as JsonValue, TAB);
    }
    text += `\n${row}`;
    lineEnds.push(text.length);
  }
  return { text, lineEnds };
}

/**
 * The envelope fields that say something, on one line: `null`, `false`, `undefined` and
 * empty arrays are left out. Empty when nothing is left.
 *
 * @example
 * ```ts
 * envelopeLine({ nextCursor: null, hasMore: false, total: 3 }); // "total=3"
 * ```
 */
export function envelopeLine(fields: Readonly<Record<string, JsonValue | undefined>>): string {
  const pairs: string[] = [];
  for (const [key, value] of Object.entries(fields)) {
    if (value === null || value === false || value === undefined) continue;
    if (Array.isArray(value) && value.length === 0) continue;
    pairs.push(`${key}=${writeCell(value, SPACE)}`);
  }
  return pairs.join(SPACE);
}

/**
 * One flat object as one `key=value` line per field, when it is flat: at least one field,
 * each value a scalar or an array of scalars (`undefined` otherwise: it then reads as JSON).
 * `readObjectLines` reads it back.
 *
 * @example
 * ```ts
 * writeObjectLines({ title: "Crash on start", state: "open", labels: ["bug"] });
 * // 'title=Crash on start\nstate=open\nlabels=["bug"]'
 * ```
 */
export function writeObjectLines(value: JsonObject): string | undefined {
  const lines: string[] = [];
  for (const key in value) {
    const field = value[key] as JsonValue;
    if (!isScalar(field) && !(Array.isArray(field) && field.every(isScalar))) return undefined;
    lines.push(`${writeKey(key)}=${writeCell(field, NEWLINE)}`);
  }
  return lines.length === 0 ? undefined : lines.join(NEWLINE);
}

/**
 * Reads back object lines written by `writeObjectLines`: the object, its fields in order.
 *
 * @example
 * ```ts
 * readObjectLines('title=Crash on start\nlabels=["bug"]'); // { title: "Crash on start", labels: ["bug"] }
 * ```
 */
export function readObjectLines(text: string): JsonObject {
  const object: JsonObject = {};
  for (const line of text.split(NEWLINE)) {
    let key: string;
    let rest: string;
    if (line.startsWith('"')) {
      const end = valueEnd(line, 0);
      key = JSON.parse(line.slice(0, end)) as string;
      rest = line.slice(end);
    } else {
      const equals = line.indexOf("=");
      key = line.slice(0, Math.max(0, equals));
      rest = equals === -1 ? "" : line.slice(equals);
    }
    if (!rest.startsWith("=")) throw new SyntaxError(`no "=" after the key of an object line: ${line}`);
    Object.defineProperty(object, key, {
      value: readCell(rest.slice(1)),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return object;
}

/** A key of object lines: as itself, else as a JSON string (it holds `=`, or would not read back). */
function writeKey(key: string): string {
  return key.includes("=") || !readsAsItself(key, NEWLINE) ? JSON.stringify(key) : key;
}

function isScalar(value: JsonValue | undefined): boolean {
  return value === null || typeof value !== "object";
}

/**
 * One line per item, as `@Paginated({ line })` made them: a line that would break the layout
 * (empty, holding a line break, or starting with a quote) is written as a JSON string.
 */
export function writeLines(lines: readonly string[]): string {
  return lines
    .map((line) =>
      line === "" || line.includes("\n") || line.includes("\r") || line.startsWith('"')
        ? JSON.stringify(line)
        : line,
    )
    .join("\n");
}

/** Items and an envelope line, one empty line apart (the line is left out when it is empty). */
export function withEnvelopeLine(body: string, line: string): string {
  return line === "" ? body : `${body}\n\n${line}`;
}

/**
 * Reads back a text written by these rules: a table or minified JSON, then (after an
 * empty line) an optional envelope line; or an envelope line alone (the text of a page of
 * links, whose items are not in it: `items` is then `undefined`). Items of a table come
 * back as objects with the header's fields; `envelope` holds the envelope line's fields
 * (empty without one).
 *
 * @example
 * ```ts
 * readTable("id\ttitle\n1\t\"a\\tb\"\n\nnextCursor=xyz hasMore=true");
 * // { items: [{ id: 1, title: "a\tb" }], envelope: { nextCursor: "xyz", hasMore: true } }
 * ```
 */
export function readTable(text: string): {
  items: JsonValue | undefined;
  envelope: Record<string, JsonValue>;
} {
  const split = text.indexOf("\n\n");
  const body = split === -1 ? text : text.slice(0, split);
  const envelope = split === -1 ? {} : readEnvelopeLine(text.slice(split + 2));
  // Minified JSON is one line; a table is at least two (the header and a row).
  if (!body.includes("\n")) {
    if (split === -1 && !isJson(body)) return { items: undefined, envelope: readEnvelopeLine(body) };
    return { items: parseJson(body), envelope };
  }
  const [header = "", ...rows] = body.split("\n");
  const fields = header.split(TAB).map((cell) => String(readCell(cell)));
  const items = rows.map((row) => {
    const cells = row.split(TAB);
    const item: JsonObject = {};
    fields.forEach((field, f) => {
      Object.defineProperty(item, field, {
        value: readCell(cells[f] ?? ""),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    });
    return item;
  });
  return { items, envelope };
}

/** The fields of an envelope line (`key=value` pairs, one space apart). */
function readEnvelopeLine(line: string): Record<string, JsonValue> {
  const fields: Record<string, JsonValue> = {};
  let at = 0;
  while (at < line.length) {
    const equals = line.indexOf("=", at);
    if (equals === -1) throw new SyntaxError(`no "=" after position ${at} of an envelope line`);
    const key = line.slice(at, equals);
    const end = valueEnd(line, equals + 1);
    fields[key] = readCell(line.slice(equals + 1, end));
    at = end + 1;
  }
  return fields;
}

/** How a value is written in a cell whose neighbours are `delimiter` apart. */
function writeCell(value: JsonValue, delimiter: string): string {
  if (typeof value === "string") return writeString(value, delimiter);
  // Compact JSON escapes tabs and line breaks inside strings: it never breaks the layout.
  if (typeof value === "object" && value !== null) return JSON.stringify(value);
  return String(value);
}

/** A string as itself when it reads back as itself and keeps the layout, else as a JSON string. */
function writeString(value: string, delimiter: string): string {
  return readsAsItself(value, delimiter) ? value : JSON.stringify(value);
}

function readsAsItself(value: string, delimiter: string): boolean {
  if (value === "" || value.includes(delimiter) || value.includes('"')) return false;
  if (value.includes("\n") || value.includes("\r")) return false;
  if (value === "null" || value === "true" || value === "false" || JSON_NUMBER.test(value)) return false;
  const first = value.charCodeAt(0);
  if (first !== OPEN_BRACKET && first !== OPEN_BRACE) return true;
  // An envelope value that starts like JSON is scanned as JSON: always quote it.
  if (delimiter === SPACE) return false;
  return !isJson(value);
}

/** What a cell reads as (see the rules above). */
function readCell(cell: string): JsonValue {
  if (cell.startsWith('"')) return parseJson(cell);
  if (cell === "null") return null;
  if (cell === "true") return true;
  if (cell === "false") return false;
  if (JSON_NUMBER.test(cell)) return Number(cell);
  const first = cell.charCodeAt(0);
  if ((first === OPEN_BRACKET || first === OPEN_BRACE) && isJson(cell)) return parseJson(cell);
  return cell;
}

/** Where the value starting at `start` of an envelope line ends: a JSON string or value is read whole. */
function valueEnd(line: string, start: number): number {
  const first = line.charCodeAt(start);
  if (first !== QUOTE && first !== OPEN_BRACKET && first !== OPEN_BRACE) {
    const space = line.indexOf(SPACE, start);
    return space === -1 ? line.length : space;
  }
  let depth = 0;
  let inString = false;
  for (let i = start; i < line.length; i++) {
    const code = line.charCodeAt(i);
    if (inString) {
      if (code === BACKSLASH) i++;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) inString = true;
    else if (code === OPEN_BRACKET || code === OPEN_BRACE) depth++;
    else if (code === CLOSE_BRACKET || code === CLOSE_BRACE) depth--;
    if (!inString && depth === 0) return i + 1;
  }
  return line.length;
}

const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function hasExactly(item: JsonObject, fields: readonly string[]): boolean {
  let count = 0;
  for (const _ in item) count++;
  if (count !== fields.length) return false;
  for (const field of fields) if (!Object.hasOwn(item, field)) return false;
  return true;
}

/** Text already checked to be JSON (or a quoted cell), read back as the value it writes. */
function parseJson(text: string): JsonValue {
  return JSON.parse(text);
}
