import { fieldOf } from "../common/guards.js";
import type { PageLink } from "../metadata/definitions.js";

/**
 * The links `link` makes of the first `count` items, each checked (`as: "links"`).
 *
 * @example
 * ```ts
 * itemLinks((a) => ({ uri: a.url, name: a.title }), rows, 2, "Articles.list"); // [{ uri, name }, { uri, name }]
 * ```
 */
export function itemLinks(
  link: (item: unknown) => unknown,
  items: readonly unknown[],
  count: number,
  where: string,
): PageLink[] {
  return items.slice(0, count).map((item) => checkedLink(link, item, where));
}

/**
 * The lines `line` makes of the first `count` items, each checked (`line`).
 *
 * @example
 * ```ts
 * itemLines((e) => `${e.at} ${e.message}`, rows, 2, "Logs.tail"); // ["10:00 up", "10:01 down"]
 * ```
 */
export function itemLines(
  line: (item: unknown) => unknown,
  items: readonly unknown[],
  count: number,
  where: string,
): string[] {
  return items.slice(0, count).map((item) => checkedLine(line, item, where));
}

/** A line made by `line(item)`, checked: a page's text must be text. */
function checkedLine(line: (item: unknown) => unknown, item: unknown, where: string): string {
  const made = line(item);
  if (typeof made !== "string") {
    throw new Error(`${where}: @Paginated's line(item) must return a string, not ${describeValue(made)}`);
  }
  return made;
}

function describeValue(value: unknown): string {
  if (value === null || typeof value !== "object")
    return typeof value === "string" ? "a string" : String(value);
  return Array.isArray(value) ? "an array" : "an object";
}

/** A link made by `link(item)`, checked: a page of links must hold resource links a client can read. */
function checkedLink(link: (item: unknown) => unknown, item: unknown, where: string): PageLink {
  const made = link(item);
  if (!isPageLink(made)) {
    throw new Error(
      `${where}: @Paginated's link(item) must return { uri, name } with non-empty strings, not ${JSON.stringify(made)}`,
    );
  }
  return made;
}

/** True for a value with a non-empty string `uri` and `name`: what a page of links needs of each link. */
function isPageLink(value: unknown): value is PageLink {
  const uri = fieldOf(value, "uri");
  const name = fieldOf(value, "name");
  return typeof uri === "string" && uri !== "" && typeof name === "string" && name !== "";
}
