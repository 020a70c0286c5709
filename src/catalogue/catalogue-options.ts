import { OptionChecker } from "../builder/check-options.js";

/**
 * The app's `catalogue` option (`McpFactory.create(…, { catalogue })`).
 *
 * @example
 * ```ts
 * await McpFactory.create(AppModule, {
 *   name: "big", version: "1.0.0",
 *   catalogue: { search: true, pinned: ["get_status"] }, // tools/list: get_status and search_tools
 * });
 * ```
 */
export interface CatalogueOptions {
  /**
   * `true`: `tools/list` lists only the `pinned` tools and the built-in `search_tools`, which
   * answers the full definitions of the tools matching a query, best first. Every tool stays
   * callable by name, and a tool that `search_tools` returned joins the caller's list
   * (announced with `notifications/tools/list_changed`).
   */
  search?: boolean | undefined;
  /** Tools always listed under `search` (names of the app's tools; an unknown one fails start-up). */
  pinned?: readonly string[] | undefined;
}

/** The catalogue option, checked: whether search is on and which tools it always lists. */
export interface CatalogueSettings {
  readonly search: boolean;
  readonly pinned: readonly string[];
}

const WHERE = "McpFactory.create options";

/** Checks the `catalogue` option's shape (the pinned names are checked once the tools are built). */
export function checkCatalogueOptions(options: unknown): CatalogueSettings {
  const check = new OptionChecker(WHERE);
  const given = check.knownKeys(options, ["search", "pinned"], "`catalogue`");
  const search =
    check.optionalBoolean(
      "`catalogue.search`",
      given.search,
      "`search: true` lists the pinned tools and search_tools",
    ) ?? false;
  const pinned: unknown = given.pinned ?? [];
  if (!Array.isArray(pinned) || pinned.some((name) => typeof name !== "string")) {
    return check.fail("`catalogue.pinned` must be an array of tool names", 'e.g. pinned: ["get_status"]');
  }
  if (pinned.length > 0 && !search) {
    check.fail(
      "`catalogue.pinned` has no effect without `catalogue.search: true`",
      "add `search: true`, or drop `pinned`",
    );
  }
  return Object.freeze({ search, pinned: Object.freeze([...(pinned as string[])]) });
}
