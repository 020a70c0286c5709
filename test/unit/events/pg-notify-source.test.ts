import { afterEach, describe, expect, it, vi } from "vitest";
import { InMemoryEventBus } from "../../../src/events/in-memory-event-bus.js";
import type { PgListenClient } from "../../../src/events/pg-notify-source.js";

afterEach(() => {
  vi.doUnmock("pg");
  vi.resetModules();
});

/** PgNotifySource from a fresh module graph in which `pg` cannot be found. */
async function withoutPg() {
  vi.resetModules();
  vi.doMock("pg", () => {
    throw new Error("Cannot find package 'pg'");
  });
  return (await import("../../../src/events/pg-notify-source.js")).PgNotifySource;
}

describe("PgNotifySource without the optional pg package", () => {
  it("says which package to install when it starts", async () => {
    const PgNotifySource = await withoutPg();
    const source = new PgNotifySource({ channel: "articles_changed" });
    const error = await source.start(new InMemoryEventBus()).catch((e: unknown) => e as Error);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe("PgNotifySource needs the optional `pg` package: npm install pg");
    expect((error as Error).cause).toBeInstanceOf(Error); // why the import failed
  });

  it("never needs it when given a client of its own", async () => {
    const PgNotifySource = await withoutPg();
    const queries: string[] = [];
    const client: PgListenClient = {
      connect: async () => undefined,
      query: async (text) => void queries.push(text),
      on: () => undefined,
      end: async () => undefined,
    };
    const source = new PgNotifySource({ channel: ["a_changed", "b_changed"], client });
    await source.start(new InMemoryEventBus());
    expect(queries).toEqual(['LISTEN "a_changed"', 'LISTEN "b_changed"']);
    await source.close();
    expect(queries.slice(2)).toEqual(['UNLISTEN "a_changed"', 'UNLISTEN "b_changed"']);
  });
});
