/** A valid query, shown in every refusal so the model sees the form it should send. */
const QUERY_EXAMPLE =
  '{"where":{"state":"open","comments":{"$gte":2},"title":{"$regex":"timeout","$options":"i"}},"select":["id","title"],"orderBy":{"comments":-1},"limit":5}';

/**
 * A query the model can fix: `part` names the bad part of the input (`where.state.$foo`,
 * `orderBy`, `aggregate.sum`), the message says what is wrong and how to write it instead.
 */
export class QueryError extends Error {
  override readonly name = "QueryError";
  constructor(
    readonly part: string,
    problem: string,
  ) {
    super(`${part}: ${problem}`);
  }
}

/** The text a refused query answers with: the bad part, why, and a valid example. */
export function describeQueryError(error: QueryError): string {
  return `Bad query at ${error.message}. Example of a valid query: ${QUERY_EXAMPLE}`;
}
