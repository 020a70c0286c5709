import {
  type AggregateAnswer,
  type AggregateRequest,
  Inject,
  Injectable,
  type StableKeyValue,
} from "frugal-mcp";
import { SQL_DATABASE, type SqlDatabase } from "../database/sql-database.js";

/** One article, body included. */
export interface Article {
  site: string;
  slug: string;
  title: string;
  author: string;
  premium: boolean;
  updatedAt: Date;
  body: string;
}

/**
 * A list row: no body, an excerpt instead; its tags (the topic, and `premium` for premium
 * articles) and its length in words.
 */
export type ArticleSummary = Omit<Article, "body"> & { excerpt: string; tags: string[]; words: number };

/**
 * Where a page starts: the stable key of the last row already returned. A slug is unique
 * within its site only (each site numbers its own), so the key ends with the site.
 */
export interface ArticleKey {
  updatedAt: Date;
  slug: string;
  site: string;
}

interface ArticleRow extends Record<string, unknown> {
  site: string;
  slug: string;
  title: string;
  author: string;
  premium: number;
  updated_at: number;
  excerpt?: string;
  body?: string;
  tags?: string[];
  words?: number;
}

/** An article's tags, made from its row: the topic its slug starts with, and "premium". */
const TAGS =
  "CASE WHEN premium = 1 THEN ARRAY[split_part(slug, '-', 1), 'premium'] ELSE ARRAY[split_part(slug, '-', 1)] END";
/** An article's length in words. */
const WORDS = "array_length(string_to_array(body, ' '), 1)";
const SUMMARY = `site, slug, title, author, premium, updated_at, substr(body, 1, 100) AS excerpt, ${TAGS} AS tags, ${WORDS} AS words`;

/** Fields an aggregate may group by in SQL, as columns of `AGGREGATED` (`tags`, an array, is unnested). */
const GROUP_COLUMNS: Readonly<Record<string, string>> = {
  site: "a.site",
  author: "a.author",
  premium: "a.premium",
  slug: "a.slug",
  title: "a.title",
  tags: "t.tag",
};
/** The one numeric field of a list row: what `sum`, `min`, `max` and `avg` may name in SQL. */
const MEASURE_COLUMNS: Readonly<Record<string, string>> = { words: "a.words" };
/**
 * One measure in SQL. Sums and means are float8 (numbers, as the framework's are, not
 * numeric strings); a mean is the sum divided by the count, as the framework divides it,
 * so both give the very same double.
 */
function measureSql(measure: "sum" | "min" | "max" | "avg", column: string): string {
  if (measure === "sum") return `sum(${column})::float8`;
  if (measure === "avg")
    return `CASE WHEN count(${column}) = 0 THEN NULL ELSE sum(${column})::float8 / count(${column}) END`;
  return `${measure}(${column})`;
}

/** The SQL column of a field, never one inherited from `Object.prototype` (`constructor`). */
function columnOf(columns: Readonly<Record<string, string>>, field: string): string | undefined {
  return Object.hasOwn(columns, field) ? columns[field] : undefined;
}

/** The rows an aggregate reads: list rows as the tool's items show them. */
const AGGREGATED = `SELECT site, slug, title, author, premium = 1 AS premium, ${TAGS} AS tags, ${WORDS} AS words FROM articles`;

/**
 * The articles table. Pages are keyset queries on `(updated_at, slug)`: the condition goes
 * into SQL with the key from the cursor, so page 100 costs what page 1 costs.
 *
 * @example
 * ```ts
 * await repo.page("tech", null, 21); // page 1 of 20, plus one row to tell whether more exist
 * ```
 */
@Injectable()
export class ArticlesRepository {
  constructor(@Inject(SQL_DATABASE) private readonly db: SqlDatabase) {}

  /** At most `limit` rows of `site` (every site when undefined) after `after`, in key order. */
  async page(site: string | undefined, after: ArticleKey | null, limit: number): Promise<ArticleSummary[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    /** `$n` for the next parameter. */
    const bind = (value: unknown) => `$${params.push(value)}`;
    if (site !== undefined) where.push(`site = ${bind(site)}`);
    if (after) {
      const key = [bind(after.updatedAt.getTime()), bind(after.slug), bind(after.site)];
      where.push(`(updated_at, slug, site) > (${key.join(", ")})`);
    }
    const rows = await this.db.query<ArticleRow>(
      `SELECT ${SUMMARY} FROM articles ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
       ORDER BY updated_at, slug, site LIMIT ${bind(limit)}`,
      params,
    );
    return rows.map(toSummary);
  }

  async get(slug: string): Promise<Article | undefined> {
    const [row] = await this.db.query<ArticleRow>(
      "SELECT site, slug, title, author, premium, updated_at, body FROM articles WHERE slug = $1 LIMIT 1",
      [slug],
    );
    if (!row) return undefined;
    const { excerpt: _excerpt, tags: _tags, words: _words, ...summary } = toSummary(row);
    return { ...summary, body: row.body ?? "" };
  }

  /** Every article, body included: what a tool without frugal-mcp would answer (the demo's baseline). */
  async all(site?: string): Promise<Article[]> {
    const rows = await this.db.query<ArticleRow>(
      `SELECT site, slug, title, author, premium, updated_at, body FROM articles
       ${site === undefined ? "" : "WHERE site = $1"} ORDER BY updated_at, slug, site`,
      site === undefined ? [] : [site],
    );
    return rows.map((row) => {
      const { excerpt: _excerpt, tags: _tags, words: _words, ...summary } = toSummary(row);
      return { ...summary, body: row.body ?? "" };
    });
  }

  /**
   * Answers `ctx.aggregate` with one `GROUP BY` (an array field unnested, so it counts once
   * per element, as the framework counts), or undefined when it names a field this SQL
   * does not know: the framework then walks the pages instead.
   */
  async aggregate(site: string | undefined, request: AggregateRequest): Promise<AggregateAnswer | undefined> {
    const groupBy = request.groupBy === undefined ? [] : [request.groupBy].flat();
    const keys = groupBy.map((field) => columnOf(GROUP_COLUMNS, field));
    const measures = (["sum", "min", "max", "avg"] as const).filter((m) => request[m] !== undefined);
    const measured = measures.map((m) => columnOf(MEASURE_COLUMNS, request[m] as string));
    if (keys.some((key) => key === undefined) || measured.some((column) => column === undefined))
      return undefined;
    const params: unknown[] = site === undefined ? [] : [site];
    const from = `(${AGGREGATED}${site === undefined ? "" : " WHERE site = $1"}) a${
      groupBy.includes("tags") ? " CROSS JOIN LATERAL unnest(a.tags) AS t(tag)" : ""
    }`;
    const columns = [
      ...keys.map((key, i) => `${key} AS k${i}`),
      "count(*)::int AS count",
      // float8: numbers, as the framework's sums and means are, not numeric strings.
      ...measures.map((m, i) => `${measureSql(m, measured[i] as string)} AS ${m}`),
    ];
    const grouped = keys.length > 0 ? ` GROUP BY ${keys.map((_, i) => i + 1).join(", ")}` : "";
    const rows = await this.db.query(`SELECT ${columns.join(", ")} FROM ${from}${grouped}`, params);
    const [counted] = await this.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM articles${site === undefined ? "" : " WHERE site = $1"}`,
      params,
    );
    const groups = rows
      .filter((row) => Number(row.count) > 0)
      .map((row) => ({
        key: Object.fromEntries(groupBy.map((field, i) => [field, row[`k${i}`] ?? null])),
        count: Number(row.count),
        ...Object.fromEntries(measures.map((m) => [m, row[m] ?? null])),
      }));
    return { groups, total: Number(counted?.n ?? 0) };
  }

  async sites(): Promise<string[]> {
    const rows = await this.db.query<{ site: string }>("SELECT DISTINCT site FROM articles ORDER BY site");
    return rows.map((r) => r.site);
  }
}

/**
 * Reads `ctx.page.after` back as an `ArticleKey`. Cursors are signed and bound to the tool,
 * so anything else means the key changed shape since the cursor was issued.
 */
export function articleKey(after: Readonly<Record<string, StableKeyValue>> | null): ArticleKey | null {
  if (after === null) return null;
  const { updatedAt, slug, site } = after;
  if (!(updatedAt instanceof Date) || typeof slug !== "string" || typeof site !== "string") {
    throw new Error("the cursor does not hold an (updatedAt, slug, site) key; start again without `cursor`");
  }
  return { updatedAt, slug, site };
}

function toSummary(row: ArticleRow): ArticleSummary {
  return {
    site: row.site,
    slug: row.slug,
    title: row.title,
    author: row.author,
    premium: Number(row.premium) === 1,
    updatedAt: new Date(Number(row.updated_at)),
    excerpt: row.excerpt ?? "",
    tags: row.tags ?? [],
    words: Number(row.words ?? 0),
  };
}
