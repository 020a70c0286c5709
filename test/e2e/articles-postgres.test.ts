/**
 * The articles example on a real PostgreSQL server (`DATABASE_URL`, default
 * postgres://postgres@127.0.0.1:5432/test). Everything lives in a schema named at random,
 * created here and dropped here: nothing else in the database is touched.
 *
 * Unreachable server: with CI=true the suite FAILS (CI is meant to have one; .ci/run starts
 * it); elsewhere it is skipped with a message saying why.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_DATABASE_URL,
  PostgresArticlesRepo,
} from "../../examples/articles/postgres-articles.repo.js";
import { articlesContract } from "./articles-contract.js";

const url = process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
const inCi = /^(true|1)$/i.test(process.env.CI ?? "");
const schema = `articles_test_${randomBytes(6).toString("hex")}`;

/** Why Postgres cannot be used, or null when it can. */
async function unreachable(): Promise<string | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return null;
  } catch (error) {
    return (error as Error).message || String(error);
  } finally {
    await client.end().catch(() => {});
  }
}

const reason = await unreachable();
const redacted = url.replace(/\/\/([^:@/]+):[^@/]*@/, "//$1:***@");
if (reason && !inCi) {
  console.warn(`articles-postgres: skipped, PostgreSQL at ${redacted} is unreachable (${reason})`);
}

describe.skipIf(reason !== null && !inCi)(`articles example on PostgreSQL (schema ${schema})`, () => {
  if (reason !== null) {
    it("reaches PostgreSQL (required when CI=true)", () => {
      throw new Error(`CI=true but PostgreSQL at ${redacted} is unreachable: ${reason}`);
    });
    return;
  }

  const admin = new pg.Pool({ connectionString: url, max: 1 });
  let created = false;

  articlesContract(
    async () => {
      // A plain CREATE (no IF NOT EXISTS): if the name were ever taken we fail instead of
      // adopting, and so never drop, someone else's schema.
      await admin.query(`CREATE SCHEMA "${schema}"`);
      created = true;
      const repo = new PostgresArticlesRepo({ connectionString: url, schema });
      await repo.ready();
      return repo;
    },
    async () => {
      // Runs after the app (and so the repository's pool) is closed.
      try {
        if (created) await admin.query(`DROP SCHEMA "${schema}" CASCADE`);
      } finally {
        await admin.end();
      }
    },
  );

  it("keeps slugs in a C-collated column and the timestamps as timestamptz", async () => {
    const { rows } = await admin.query(
      `SELECT column_name, data_type, collation_name FROM information_schema.columns
       WHERE table_schema = $1 AND table_name = 'articles' AND column_name IN ('slug', 'updated_at')
       ORDER BY column_name`,
      [schema],
    );
    expect(rows).toEqual([
      { column_name: "slug", data_type: "text", collation_name: "C" },
      { column_name: "updated_at", data_type: "timestamp with time zone", collation_name: null },
    ]);
  });
});
