import { type FieldPath, fieldPath, project } from "../aggregate/query-fields.js";
import type { SearchResult } from "./search-resource.js";

/**
 * Checks the `fields` of a search (dotted paths, as `select` of a query); throws a
 * `QueryError` naming the bad one.
 */
export function searchFields(fields: readonly string[]): FieldPath[] {
  return fields.map((path, i) => fieldPath(path, `fields.${i}`));
}

/** The matches with only `fields` of each matching item kept (lines are left as they are). */
export function projectMatches(found: SearchResult, fields: readonly FieldPath[]): SearchResult {
  return {
    ...found,
    matches: found.matches.map((match) =>
      match.item === undefined ? match : { ...match, item: project(match.item, fields) },
    ),
  };
}
