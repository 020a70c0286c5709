import type MiniSearch from "minisearch";
import type { ToolDefinition } from "../pipeline/operation.js";

/** One tool as the index reads it. */
interface ToolDocument {
  readonly id: string;
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly parameters: string;
}

/**
 * Field weights: a word of the tool's name says most about what it does, its title nearly as
 * much, a parameter name (`repository`, `since`) more than a word of the description.
 */
const BOOST = { name: 3, title: 2, parameters: 1.5, description: 1 };

/** Words too common in tool descriptions and queries to tell tools apart. */
const STOP_WORDS = new Set(
  "a an and are as at be by for from how i in into is it its me my of on or that the this to use used what when which with".split(
    " ",
  ),
);

/**
 * Ranks an app's tools against a query, best first: BM25 (MiniSearch) over each tool's name,
 * title, description and parameter names, with prefix and light fuzzy matching so that
 * `issue` finds `list_issues` and a typo still lands. Built once, on the first search.
 *
 * @example
 * ```ts
 * const search = await ToolSearch.build([...registry.tools.values()].map((t) => t.definition));
 * search.rank("open pull requests"); // ["list_pull_requests", "get_pull_request", …]
 * ```
 */
export class ToolSearch {
  private constructor(private readonly index: MiniSearch<ToolDocument>) {}

  static async build(tools: readonly ToolDefinition[]): Promise<ToolSearch> {
    // Loaded on the first search: apps without `catalogue.search` never load it.
    const { default: MiniSearchClass } = await import("minisearch");
    const index = new MiniSearchClass<ToolDocument>({
      fields: ["name", "title", "description", "parameters"],
      tokenize: wordsOf,
      processTerm: (term) => {
        const lower = term.toLowerCase();
        return STOP_WORDS.has(lower) ? null : lower;
      },
      searchOptions: { boost: BOOST, prefix: true, fuzzy: 0.2, combineWith: "OR" },
    });
    index.addAll(tools.map(documentOf));
    return new ToolSearch(index);
  }

  /** The names of the tools that match `query`, best first. */
  rank(query: string): string[] {
    return this.index.search(query).map((result) => String(result.id));
  }
}

function documentOf(tool: ToolDefinition): ToolDocument {
  const properties = tool.listing.inputSchema.properties;
  return {
    id: tool.name,
    name: tool.name,
    title: tool.listing.title ?? "",
    description: tool.listing.description ?? "",
    parameters: Object.keys(properties ?? {}).join(" "),
  };
}

/** Words of names and prose alike: `listPullRequests`, `list_pull_requests` and `list-pull-requests` read the same. */
export function wordsOf(text: string): string[] {
  return text
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, "$1 $2")
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== "");
}
