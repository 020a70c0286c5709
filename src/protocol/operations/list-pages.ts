import { fieldOf } from "../../common/guards.js";
import { invalidParams } from "../../errors/protocol-errors.js";

/**
 * Pages a list operation (`tools/list`, `resources/list`, …) once it exceeds `pageSize`.
 * The cursor is opaque to clients; it only holds an offset, because list contents are
 * public to the session and stable between calls. The last page has no `nextCursor`.
 */
export function pageOfList<T>(
  items: readonly T[],
  cursor: string | undefined,
  pageSize: number,
  listName: string,
): { items: T[]; nextCursor?: string } {
  const offset = cursor === undefined ? 0 : decodeListCursor(cursor, listName);
  const end = offset + pageSize;
  const page = items.slice(offset, end);
  return end < items.length ? { items: page, nextCursor: encodeListCursor(end, listName) } : { items: page };
}

function encodeListCursor(offset: number, listName: string): string {
  return Buffer.from(JSON.stringify({ l: listName, o: offset })).toString("base64url");
}

function decodeListCursor(cursor: string, listName: string): number {
  try {
    const decoded: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    const offset = fieldOf(decoded, "o");
    if (
      fieldOf(decoded, "l") === listName &&
      typeof offset === "number" &&
      Number.isSafeInteger(offset) &&
      offset >= 0
    ) {
      return offset;
    }
  } catch {
    // fall through to the error below
  }
  throw invalidParams(
    `Invalid cursor for ${listName}: list again without a cursor to start from the first page.`,
  );
}
