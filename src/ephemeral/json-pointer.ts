/**
 * JSON Pointers (RFC 6901): `/comments/2/text` names the `text` of the third comment.
 * `~` is written `~0` and `/` is written `~1` inside a segment; `""` is the whole value.
 */

/** One segment of a pointer, escaped. */
export function pointerSegment(key: string | number): string {
  const text = String(key);
  return text.includes("~") || text.includes("/") ? text.replaceAll("~", "~0").replaceAll("/", "~1") : text;
}

/** The pointer of a path of keys and indexes. */
export function toPointer(path: readonly (string | number)[]): string {
  let pointer = "";
  for (const key of path) pointer += `/${pointerSegment(key)}`;
  return pointer;
}

/** A malformed pointer; the message says what a pointer looks like. */
export class PointerError extends Error {}

/** The segments of a pointer, unescaped; throws a `PointerError` when it does not start with `/`. */
export function parsePointer(pointer: string): string[] {
  if (pointer === "") return [];
  if (!pointer.startsWith("/"))
    throw new PointerError(
      `path ${JSON.stringify(pointer)} must be a JSON Pointer such as /body or /comments/2/text`,
    );
  return pointer
    .slice(1)
    .split("/")
    .map((segment) => segment.replaceAll("~1", "/").replaceAll("~0", "~"));
}

/** Every string inside `value`, depth first in document order, with its pointer. */
export function* stringFields(
  value: unknown,
  path: (string | number)[] = [],
): Generator<{ path: string; value: string }> {
  if (typeof value === "string") yield { path: toPointer(path), value };
  else if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      path.push(i);
      yield* stringFields(value[i], path);
      path.pop();
    }
  } else if (typeof value === "object" && value !== null) {
    for (const [key, inner] of Object.entries(value)) {
      path.push(key);
      yield* stringFields(inner, path);
      path.pop();
    }
  }
}
