import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestClient } from "frugal-mcp";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ArticlesModule, createArticlesRepo } from "../../examples/articles/app.module.js";
import { ARTICLES_REPO, type ArticlesRepo } from "../../examples/articles/articles.repo.js";
import { PgliteArticlesRepo } from "../../examples/articles/pglite-articles.repo.js";
import { PostgresArticlesRepo } from "../../examples/articles/postgres-articles.repo.js";
import { articlesContract } from "./articles-contract.js";

describe("articles example on PGlite", () => {
  articlesContract(async () => {
    const repo = new PgliteArticlesRepo();
    await repo.ready();
    return repo;
  });
});

describe("articles example wiring", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it("picks PGlite by default and Postgres when the environment says so", async () => {
    const repos: ArticlesRepo[] = [
      createArticlesRepo({}),
      createArticlesRepo({ ARTICLES_DB: "postgres" }),
      createArticlesRepo({ DATABASE_URL: "postgres://nobody@127.0.0.1:1/none" }),
      createArticlesRepo({ DATABASE_URL: "postgres://nobody@127.0.0.1:1/none", ARTICLES_DB: "pglite" }),
    ];
    // No repository has started its database or connected yet (that happens in ready()), so closing is instant.
    await Promise.all(repos.map((r) => r.close()));
    expect(repos.map((r) => r.constructor.name)).toEqual([
      PgliteArticlesRepo.name,
      PostgresArticlesRepo.name,
      PostgresArticlesRepo.name,
      PgliteArticlesRepo.name,
    ]);
    expect(() => createArticlesRepo({ ARTICLES_DB: "sqlite" })).toThrow(/use "pglite" or "postgres"/);
  });

  it("builds the repository through the module's factory and closes it with the app", async () => {
    vi.stubEnv("ARTICLES_DB", "pglite");
    const t = await createTestClient(ArticlesModule, { cursorSecret: "articles-test-secret-0123456789" });
    const repo = t.app.get<ArticlesRepo>(ARTICLES_REPO);
    expect(repo).toBeInstanceOf(PgliteArticlesRepo);
    const result = await t.client.callTool({ name: "list_articles", arguments: { site: "tech" } });
    expect((result.structuredContent as { count: number }).count).toBe(20);
    await t.close();
    expect((repo as PgliteArticlesRepo).closed).toBe(true);
    await expect(repo.sites()).rejects.toThrow("the articles repository is closed");
  });

  it("seeds a database directory once and keeps it across restarts", async () => {
    const dir = mkdtempSync(join(tmpdir(), "articles-"));
    try {
      const dataDir = join(dir, "pgdata");
      const first = new PgliteArticlesRepo({ dataDir, seed: 30 });
      await first.upsert([
        { site: "tech", slug: "kept", title: "Kept", premium: false, updatedAt: new Date(0), body: "b" },
      ]);
      await first.close();
      const again = new PgliteArticlesRepo({ dataDir, seed: 30 });
      expect((await again.listAfter("tech", null, 100)).length).toBe(11);
      expect((await again.get("tech", "kept"))?.body).toBe("b");
      await again.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
