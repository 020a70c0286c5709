/** A quota or input problem the client can act on (too large, too many, a quota reached). */
export class ResourceLimitError extends Error {
  override readonly name = "ResourceLimitError";
}

/** No resource at that URI that this caller may see: it never existed, expired, or is someone else's. */
export class ResourceNotFoundError extends Error {
  override readonly name = "ResourceNotFoundError";
  constructor(
    readonly uri: string,
    detail = "it may have expired or belong to another owner",
  ) {
    super(`Resource not found: ${uri} (${detail})`);
  }
}
