import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestClient } from "frugal-mcp";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ArticlesModule, createArticlesRepo } from "../../examples/articles/app.module.js";
import { ARTICLES_REPO, type ArticlesRepo } from "../../examples/articles/articles.repo.js";
import { PostgresArticlesRepo } from "../../examples/articles/postgres-articles.repo.js";
import { SqliteArticlesRepo } from "../../examples/articles/sqlite-articles.repo.js";
import { articlesContract } from "./articles-contract.js";

describe("articles example on SQLite", () => {
  articlesContract(async () => new SqliteArticlesRepo());
});

describe("articles example wiring", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it("picks SQLite by default and Postgres when the environment says so", async () => {
    const repos: ArticlesRepo[] = [
      createArticlesRepo({}),
      createArticlesRepo({ ARTICLES_DB: "postgres" }),
      createArticlesRepo({ DATABASE_URL: "postgres://nobody@127.0.0.1:1/none" }),
      createArticlesRepo({ DATABASE_URL: "postgres://nobody@127.0.0.1:1/none", ARTICLES_DB: "sqlite" }),
    ];
    // The Postgres repositories have not connected yet (that happens in ready()), so closing is instant.
    await Promise.all(repos.map((r) => r.close()));
    expect(repos.map((r) => r.constructor.name)).toEqual([
      SqliteArticlesRepo.name,
      PostgresArticlesRepo.name,
      PostgresArticlesRepo.name,
      SqliteArticlesRepo.name,
    ]);
    expect(() => createArticlesRepo({ ARTICLES_DB: "mysql" })).toThrow(/use "sqlite" or "postgres"/);
  });

  it("builds the repository through the module's factory and closes it with the app", async () => {
    vi.stubEnv("ARTICLES_DB", "sqlite");
    const t = await createTestClient(ArticlesModule, { cursorSecret: "articles-test-secret-0123456789" });
    const repo = t.app.get<ArticlesRepo>(ARTICLES_REPO);
    expect(repo).toBeInstanceOf(SqliteArticlesRepo);
    const result = await t.client.callTool({ name: "list_articles", arguments: { site: "tech" } });
    expect((result.structuredContent as { count: number }).count).toBe(20);
    await t.close();
    expect((repo as SqliteArticlesRepo).db.open).toBe(false);
  });

  it("seeds a database file once and keeps it across restarts", async () => {
    const dir = mkdtempSync(join(tmpdir(), "articles-"));
    try {
      const filename = join(dir, "articles.db");
      const first = new SqliteArticlesRepo({ filename, seed: 30 });
      await first.upsert([
        { site: "tech", slug: "kept", title: "Kept", premium: false, updatedAt: new Date(0), body: "b" },
      ]);
      await first.close();
      const again = new SqliteArticlesRepo({ filename, seed: 30 });
      expect((await again.listAfter("tech", null, 100)).length).toBe(11);
      expect((await again.get("tech", "kept"))?.body).toBe("b");
      await again.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
