import type { StableKeyValue } from "frugal-mcp";

/** One article of the catalogue. `(site, slug)` is unique; `(updatedAt, slug)` orders a site. */
export interface Article {
  site: string;
  slug: string;
  title: string;
  premium: boolean;
  updatedAt: Date;
  body: string;
}

/** A list row: everything but the body, which only `read_article` returns. */
export type ArticleSummary = Omit<Article, "body"> & { excerpt: string };

/** Where a page starts: the stable key of the last row already returned. */
export interface ArticleKey {
  updatedAt: Date;
  slug: string;
}

/**
 * The storage the service needs. `SqlArticlesRepo` pushes the keyset condition into SQL,
 * so page 1,000 costs what page 1 costs (see bench/pagination.bench.ts).
 */
export interface ArticlesRepo {
  /**
   * At most `limit` rows of `site` that sort strictly after `after` by `(updatedAt, slug)`,
   * in that order. Pass `ctx.page.limit + 1`: the extra row tells the framework more exist.
   */
  listAfter(site: string, after: ArticleKey | null, limit: number): Promise<ArticleSummary[]>;
  /** The `n` most recently updated rows of a site, newest first. */
  latest(site: string, n: number): Promise<ArticleSummary[]>;
  get(site: string, slug: string): Promise<Article | undefined>;
  /** Adds rows, or replaces those with the same `(site, slug)`. */
  upsert(articles: readonly Article[]): Promise<void>;
  sites(): Promise<string[]>;
  /** Releases the connection(s); `app.close()` calls it. Safe to call twice. */
  close(): Promise<void>;
}

/**
 * DI token of the repository: the module's factory picks PGlite or Postgres, and tests
 * override it with `{ provide: ARTICLES_REPO, useValue: repo }`. A symbol, because an
 * interface has no runtime value to inject by.
 */
export const ARTICLES_REPO = Symbol("ARTICLES_REPO");

/**
 * Reads `ctx.page.after` back as an `ArticleKey`. Cursors are signed and bound to this
 * tool, so anything else means the key changed shape since the cursor was issued (e.g.
 * a deploy renamed a field): fail loudly rather than run a query with `undefined`.
 */
export function articleKey(after: Readonly<Record<string, StableKeyValue>> | null): ArticleKey | null {
  if (after === null) return null;
  const { updatedAt, slug } = after;
  if (!(updatedAt instanceof Date) || typeof slug !== "string") {
    throw new Error("the cursor does not hold an (updatedAt, slug) key; start again without `cursor`");
  }
  return { updatedAt, slug };
}

/** The URI `read_article` serves an article under; each part is percent-encoded once. */
export function articleUri(site: string, slug: string): string {
  return `articles://${encodeURIComponent(site)}/${encodeURIComponent(slug)}`;
}

const TOPICS = ["pagination", "caching", "budgets", "cursors", "sessions", "transports", "schemas"];
const WORDS = "the a model context token page cursor row key stable window budget cache spill result".split(
  " ",
);

export interface GenerateOptions {
  /** Sites to spread rows over, round-robin (default `["tech", "food", "travel"]`). */
  sites?: readonly string[];
  /** Timestamp of the oldest row (default 2025-01-01). */
  since?: number;
  /** Words per body (default 60). */
  bodyWords?: number;
}

/**
 * Deterministic rows for seeding and for tests to compare against. Every three rows of a
 * site share one `updatedAt` (imports in a batch do that), so the `slug` tie-breaker of
 * the stable key is exercised, not just present.
 */
export function generateArticles(count: number, options: GenerateOptions = {}): Article[] {
  const sites = options.sites ?? ["tech", "food", "travel"];
  const since = options.since ?? Date.UTC(2025, 0, 1);
  const bodyWords = options.bodyWords ?? 60;
  let state = 42;
  const random = () => {
    // xorshift32: the same rows on every run, without a dependency.
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 0x1_0000_0000;
  };
  return Array.from({ length: count }, (_, i) => {
    const site = sites[i % sites.length] as string;
    const n = Math.floor(i / sites.length);
    const topic = TOPICS[n % TOPICS.length] as string;
    const body = Array.from({ length: bodyWords }, () => WORDS[Math.floor(random() * WORDS.length)]).join(
      " ",
    );
    return {
      site,
      // Not in insertion order, so a walk that leaned on the order rows were stored in would show it.
      slug: `${topic}-${String((n * 7919) % 1_000_003).padStart(7, "0")}`,
      title: `${topic[0]?.toUpperCase()}${topic.slice(1)} notes #${n}`,
      premium: n % 4 === 0,
      updatedAt: new Date(since + Math.floor(n / 3) * 60_000),
      body: `${body}.`,
    };
  });
}

/** Orders like the repositories do: `updatedAt`, then `slug` by code unit (ASCII slugs here). */
export function compareByKey(a: ArticleKey, b: ArticleKey): number {
  return a.updatedAt.getTime() - b.updatedAt.getTime() || (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0);
}
