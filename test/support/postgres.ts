import { randomBytes } from "node:crypto";
import pg from "pg";
import { DATABASE_URL } from "./services.js";

/** Whether PostgreSQL answers; under `CI=true` a missing server is a failure, not a skip. */
export async function postgresAvailable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: DATABASE_URL, connectionTimeoutMillis: 1000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return true;
  } catch (error) {
    if (process.env.CI === "true")
      throw new Error(`PostgreSQL is required under CI=true but ${DATABASE_URL} did not answer: ${error}`);
    console.warn(`skipping: PostgreSQL at ${DATABASE_URL} did not answer (${error})`);
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/** A schema of this test's own, dropped at the end; nothing else is touched. */
export function randomSchema(name: string): string {
  return `frugal_${name}_${randomBytes(5).toString("hex")}`;
}
