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
    const decoded = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as {
      l?: unknown;
      o?: unknown;
    };
    if (decoded.l === listName && Number.isSafeInteger(decoded.o) && (decoded.o as number) >= 0) {
      return decoded.o as number;
    }
  } catch {
    // fall through to the error below
  }
  throw invalidParams(
    `Invalid cursor for ${listName}: list again without a cursor to start from the first page.`,
  );
}
