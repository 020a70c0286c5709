import { type FieldPath, fieldPath, project } from "../aggregate/query-fields.js";
import type { SearchFound } from "./search-resource.js";

/**
 * Checks the `fields` of a search (dotted paths, as `select` of a query); throws a
 * `QueryError` naming the bad one.
 */
export function searchFields(fields: readonly string[]): FieldPath[] {
  return fields.map((path, i) => fieldPath(path, `fields.${i}`));
}

/** The matches with only `fields` of each matching item kept (lines are left as they are). */
export function projectMatches(searched: SearchFound, fields: readonly FieldPath[]): SearchFound {
  const found = searched.found.map((f) =>
    f.match.item === undefined ? f : { ...f, match: { ...f.match, item: project(f.match.item, fields) } },
  );
  return { found, result: { ...searched.result, matches: found.map((f) => f.match) } };
}
