import { McpModule } from "frugal-mcp";
import { ARTICLES_REPO, type ArticlesRepo } from "./articles.repo.js";
import { ArticlesService } from "./articles.service.js";
import { PgliteArticlesRepo } from "./pglite-articles.repo.js";
import { PostgresArticlesRepo } from "./postgres-articles.repo.js";

/**
 * Picks the store from the environment: a PostgreSQL server when `ARTICLES_DB=postgres`,
 * or when `DATABASE_URL` is set (and `ARTICLES_DB` is not `pglite`); otherwise PGlite,
 * embedded (`ARTICLES_PGLITE_DIR`, default in memory), seeded with 5,000 rows. Both run
 * the same SQL (`SqlArticlesRepo`).
 */
export function createArticlesRepo(env: NodeJS.ProcessEnv = process.env): ArticlesRepo {
  const wanted = env.ARTICLES_DB ?? (env.DATABASE_URL ? "postgres" : "pglite");
  if (wanted === "postgres") return new PostgresArticlesRepo({ connectionString: env.DATABASE_URL });
  if (wanted === "pglite") return new PgliteArticlesRepo({ dataDir: env.ARTICLES_PGLITE_DIR });
  throw new Error(`ARTICLES_DB is "${wanted}"; use "pglite" or "postgres"`);
}

/**
 * The articles module. The repository sits behind a token, so the service never knows
 * which database it talks to and a test swaps it with `{ provide: ARTICLES_REPO, useValue }`.
 * Both repositories have `ready()` and `close()`: the app awaits the first at start-up and
 * calls the second on `app.close()`.
 */
@McpModule({
  services: [ArticlesService],
  providers: [{ provide: ARTICLES_REPO, useFactory: () => createArticlesRepo() }],
})
export class ArticlesModule {}
