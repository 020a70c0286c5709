/**
 * `app.stats().catalogue` through real SDK clients of both protocol eras: one view (every
 * caller sees the same tools here) served once per listing, a walk of several pages counted
 * once, its cost counted once, in the background, and equal to what `tokensOf` measures.
 * (Distinct views and their bound: test/unit/metrics/catalogue-views.test.ts.)
 */
import { Client as V2Client, InMemoryTransport as V2InMemoryTransport } from "@modelcontextprotocol/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpFactory, McpModule, McpService, Tool } from "frugal-mcp";
import { catalogueOf, tokensOf } from "frugal-mcp/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import type { McpApp2026 } from "../../src/app/app-2026.js";

@McpService()
class NotesService {
  @Tool({ description: "Add a note", input: { text: z.string().max(500) } })
  addNote({ text }: { text: string }) {
    return text;
  }

  @Tool({ description: "Count the notes" })
  countNotes() {
    return 0;
  }

  @Tool({ description: "Delete a note by id", input: { id: z.number().int().min(1) } })
  deleteNote({ id }: { id: number }) {
    return id;
  }
}

@McpModule({ services: [NotesService] })
class NotesModule {}

describe("app.stats().catalogue", () => {
  let app: McpApp2026;
  const clients: Array<{ close(): Promise<void> }> = [];
  beforeAll(async () => {
    // Two tools a page: a listing is a walk of two requests.
    app = (await McpFactory.create(NotesModule, {
      name: "notes",
      version: "1.0.0",
      protocol: "2026-07-28",
      listPageSize: 2,
    })) as McpApp2026;
  });
  afterAll(async () => {
    await Promise.allSettled(clients.map((client) => client.close()));
    await app.close();
  });

  const connect2025 = async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await app.connect(serverSide);
    const client = new Client({ name: "notes-2025", version: "1.0.0" });
    await client.connect(clientSide);
    clients.push(client);
    return client;
  };
  const connect2026 = async () => {
    const [clientSide, serverSide] = V2InMemoryTransport.createLinkedPair();
    await app.connectAnyEra(serverSide);
    const client = new V2Client(
      { name: "notes-2026", version: "1.0.0" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    await client.connect(clientSide);
    clients.push(client);
    return client;
  };

  it("is empty before anyone lists the tools", () => {
    expect(app.stats().catalogue).toEqual({ views: [], otherViews: { served: 0 } });
  });

  it("counts a 2025-11-25 client's walk once, and what the view costs, as tokensOf measures it", async () => {
    const tools = await catalogueOf(await connect2025());
    expect(tools).toHaveLength(3);
    const cost = await tokensOf(tools);
    await vi.waitFor(() => expect(app.stats().catalogue.views[0]?.tokens).toBe(cost));
    expect(app.stats().catalogue).toEqual({
      views: [{ tools: ["add_note", "count_notes", "delete_note"], tokens: cost, served: 1 }],
      otherViews: { served: 0 },
    });
  });

  it("counts a 2026-07-28 client's listing in the same view, without counting it again", async () => {
    const before = app.stats().catalogue.views[0];
    const tools = await catalogueOf(await connect2026());
    expect(tools.map((tool) => tool.name)).toEqual(before?.tools);
    const after = app.stats().catalogue;
    expect(after.views).toEqual([{ tools: before?.tools, tokens: before?.tokens, served: 2 }]);
    expect(after.otherViews.served).toBe(0);
  });

  it("counts each listing that starts over, from either era", async () => {
    const [legacy, modern] = [await connect2025(), await connect2026()];
    await legacy.listTools();
    await modern.listTools();
    await legacy.listTools();
    expect(app.stats().catalogue.views[0]?.served).toBe(5);
  });
});
