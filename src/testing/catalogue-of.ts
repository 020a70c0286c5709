import { fieldOf } from "../common/guards.js";
import type { ListedTool } from "../metrics/catalogue-text.js";

/** What `catalogueOf` needs of a client: an SDK `Client` (1.x or v2) or a `TestClient`. */
export interface ToolLister {
  /** One page of `tools/list`: the first without a cursor, the next with the previous `nextCursor`. */
  listTools(params?: { cursor?: string }): Promise<{ tools: ListedTool[]; nextCursor?: string | undefined }>;
}

/** Pages a walk of `tools/list` may take before it is taken for a loop (a server repeating its cursor). */
const MAX_PAGES = 1_000;

/**
 * Every tool a connected client is offered: `tools/list` followed through each `nextCursor`.
 *
 * @example
 * ```ts
 * const tools = await catalogueOf(client);
 * expect(await tokensOf(tools)).toBeLessThan(2_000);
 * ```
 */
export async function catalogueOf(client: ToolLister): Promise<ListedTool[]> {
  if (typeof fieldOf(client, "listTools") !== "function") {
    throw new TypeError(
      "catalogueOf takes a connected MCP client (an object with listTools), such as createTestClient's",
    );
  }
  const tools: ListedTool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const answer = await client.listTools(cursor === undefined ? undefined : { cursor });
    tools.push(...answer.tools);
    cursor = answer.nextCursor;
    if (!cursor) return tools;
  }
  throw new Error(
    `tools/list still had a nextCursor after ${MAX_PAGES} pages: the server seems to repeat its cursor`,
  );
}
