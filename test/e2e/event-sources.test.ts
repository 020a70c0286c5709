import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import {
  Cached,
  createTestClient,
  FileWatchSource,
  McpModule,
  McpService,
  PgNotifySource,
  Resource,
} from "frugal-mcp";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { postgresAvailable, randomSchema } from "../support/postgres.js";
import { DATABASE_URL } from "../support/services.js";

const pgUp = await postgresAvailable();

describe.skipIf(!pgUp)("PgNotifySource", () => {
  it("a row changed in PostgreSQL reaches a subscribed client as notifications/resources/updated", async () => {
    const schema = randomSchema("notify");
    const channel = `${schema}_changed`;
    const admin = new pg.Client({ connectionString: DATABASE_URL });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    await admin.query(`CREATE TABLE ${schema}.prices (sku text PRIMARY KEY, cents int NOT NULL)`);
    await admin.query(`INSERT INTO ${schema}.prices VALUES ('a', 100), ('b', 200)`);
    await admin.query(`CREATE FUNCTION ${schema}.notify() RETURNS trigger AS $$ BEGIN
        PERFORM pg_notify('${channel}', json_build_object('sku', NEW.sku)::text); RETURN NEW; END $$ LANGUAGE plpgsql`);
    await admin.query(
      `CREATE TRIGGER prices_notify AFTER INSERT OR UPDATE ON ${schema}.prices FOR EACH ROW EXECUTE FUNCTION ${schema}.notify()`,
    );

    @McpService()
    class PricesService {
      @Resource("prices://{sku}")
      @Cached({
        ttl: 3_600_000,
        invalidateOn: [{ event: channel, match: (input, payload) => input.sku === payload.sku }],
      })
      async price({ sku }: { sku: string }) {
        const { rows } = await admin.query(`SELECT cents FROM ${schema}.prices WHERE sku = $1`, [sku]);
        return String(rows[0]?.cents);
      }
    }
    @McpModule({
      services: [PricesService],
      providers: [
        { provide: "notify", useValue: new PgNotifySource({ channel, connectionString: DATABASE_URL }) },
      ],
    })
    class PricesModule {}

    const t = await createTestClient(PricesModule);
    try {
      const updates: string[] = [];
      t.client.setNotificationHandler(
        ResourceUpdatedNotificationSchema,
        (n) => void updates.push(n.params.uri),
      );
      await t.client.subscribeResource({ uri: "prices://a" });
      await t.client.subscribeResource({ uri: "prices://b" });
      const read = async (uri: string) =>
        ((await t.client.readResource({ uri })).contents[0] as { text: string }).text;
      expect(await read("prices://a")).toBe("100");
      await admin.query(`UPDATE ${schema}.prices SET cents = 150 WHERE sku = 'a'`);
      await expect.poll(() => updates, { timeout: 5000 }).toEqual(["prices://a"]);
      expect(await read("prices://a")).toBe("150");
    } finally {
      await t.close();
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.end();
    }
  });
});

describe("FileWatchSource", () => {
  it("a changed config file invalidates its cached resource and notifies subscribers", async () => {
    const dir = await mkdtemp(join(tmpdir(), "frugal-watch-"));
    const path = join(dir, "config.json");
    await writeFile(path, JSON.stringify({ theme: "dark" }));

    @McpService()
    class ConfigService {
      @Resource("config://app", { mimeType: "application/json" })
      @Cached({ ttl: 3_600_000, invalidateOn: ["config.changed"] })
      async config() {
        return JSON.parse(await readFile(path, "utf8"));
      }
    }
    @McpModule({
      services: [ConfigService],
      providers: [{ provide: "watch", useValue: new FileWatchSource({ path, event: "config.changed" }) }],
    })
    class ConfigModule {}

    const t = await createTestClient(ConfigModule);
    try {
      const updates: string[] = [];
      t.client.setNotificationHandler(
        ResourceUpdatedNotificationSchema,
        (n) => void updates.push(n.params.uri),
      );
      await t.client.subscribeResource({ uri: "config://app" });
      const read = async () =>
        ((await t.client.readResource({ uri: "config://app" })).contents[0] as { text: string }).text;
      expect(JSON.parse(await read())).toEqual({ theme: "dark" });
      // Replace the file the way deploy tools do: write elsewhere, then rename over it.
      await writeFile(`${path}.tmp`, JSON.stringify({ theme: "light" }));
      const { rename } = await import("node:fs/promises");
      await rename(`${path}.tmp`, path);
      await expect.poll(() => updates, { timeout: 5000 }).toContain("config://app");
      expect(JSON.parse(await read())).toEqual({ theme: "light" });
    } finally {
      await t.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
