/**
 * Compile-time checks of `PgNotifySource`'s `client` option (run by `npm run test:types`, and
 * by `npm run typecheck`): `pg` is an optional peer dependency, so the option is the
 * structural `PgListenClient`, which a `pg.Client` of the user's own satisfies.
 */
import { type PgListenClient, PgNotifySource } from "frugal-mcp";
import pg from "pg";

export const withOwnClient = new PgNotifySource({
  channel: "articles_changed",
  client: new pg.Client({ connectionString: "postgres://localhost/app" }),
});

export const asListenClient: PgListenClient = new pg.Client();
