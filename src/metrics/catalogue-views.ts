import type { TokenCounter } from "../tokenizer/token-counter.js";
import { catalogueText, type ListedTool } from "./catalogue-text.js";

/** One distinct list of tools that callers were served (`app.stats().catalogue.views`). */
export interface CatalogueView {
  /** The names of the tools in this view, in the order they are listed. */
  readonly tools: readonly string[];
  /**
   * What a model reads of the whole list, in tokens of the app's `TOKEN_COUNTER` (o200k by
   * default): each tool's name, description and input schema (app-only tools left out), as
   * `tokensOf` of `frugal-mcp/testing` measures it. Counted once per view, in the background,
   * once `app.stats()` is read (an app whose statistics nobody reads never loads a tokenizer
   * for them): `undefined` until then.
   */
  readonly tokens: number | undefined;
  /** How many times a caller listed it (each `tools/list` without a cursor: a walk counts once). */
  readonly served: number;
}

/** `app.stats().catalogue`: what `tools/list` costs a model, per distinct view. */
export interface CatalogueStats {
  /** The first 32 distinct views served, in the order first served. */
  readonly views: CatalogueView[];
  /** Listings of any view past those, counted together (their cost is not measured). */
  readonly otherViews: { readonly served: number };
}

/** How many distinct views are kept apart; more are counted together (bounded memory). */
export const MAX_CATALOGUE_VIEWS = 32;

interface ViewEntry {
  readonly tools: readonly string[];
  /** The listed tools, kept until their cost is counted. */
  source: readonly ListedTool[] | undefined;
  tokens: number | undefined;
  measuring: boolean;
  served: number;
}

/**
 * Counts the `tools/list` answers served per view (the set of tools a caller sees) and what
 * each view costs a model. Serving a list only looks its view up (by the list's identity when
 * it is the same array, else by its names): the cost is counted once per view, off the
 * answer's path, when the statistics are first read after it was served, so a server whose
 * statistics nobody reads never loads the tokenizer (it is loaded on first use, 8–15 MB).
 */
export class CatalogueViews {
  private readonly views = new Map<string, ViewEntry>();
  private readonly keys = new WeakMap<readonly ListedTool[], string>();
  private others = 0;

  constructor(private readonly counter?: TokenCounter) {}

  /** Records that `tools` (the whole list a caller sees, before paging) was served. */
  served(tools: readonly ListedTool[]): void {
    const key = this.keyOf(tools);
    let view = this.views.get(key);
    if (!view) {
      if (this.views.size >= MAX_CATALOGUE_VIEWS) {
        this.others++;
        return;
      }
      view = {
        tools: Object.freeze(tools.map((tool) => tool.name)),
        source: tools,
        tokens: undefined,
        measuring: false,
        served: 0,
      };
      this.views.set(key, view);
    }
    view.served++;
  }

  /** A snapshot for `app.stats()`; starts counting the cost of views not counted yet. */
  stats(): CatalogueStats {
    for (const view of this.views.values())
      if (view.tokens === undefined && !view.measuring) this.measure(view);
    return {
      views: [...this.views.values()].map(({ tools, tokens, served }) => ({ tools, tokens, served })),
      otherViews: { served: this.others },
    };
  }

  private keyOf(tools: readonly ListedTool[]): string {
    let key = this.keys.get(tools);
    if (key === undefined) {
      // Tool names never hold a newline (1–128 of A-Z a-z 0-9 _ - .).
      key = tools.map((tool) => tool.name).join("\n");
      this.keys.set(tools, key);
    }
    return key;
  }

  /** Counts a view's cost in the background; a failed count is tried again on a later read. */
  private measure(view: ViewEntry): void {
    const { counter } = this;
    const source = view.source;
    if (!counter || !source) return;
    view.measuring = true;
    Promise.resolve()
      .then(() => counter.count(catalogueText(source), Number.MAX_SAFE_INTEGER))
      .then(
        (count) => {
          view.tokens = count.tokens;
          view.source = undefined;
        },
        () => {},
      )
      .finally(() => {
        view.measuring = false;
      });
  }
}
