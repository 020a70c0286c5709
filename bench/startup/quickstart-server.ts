// Cold-start contender (b): the README's quick start, verbatim but for the probe, over stdio.
import "./rss-probe.js";
import "reflect-metadata";
import { Injectable, McpFactory, McpModule, McpService, Resource, Tool } from "frugal-mcp";
import { z } from "zod";

@Injectable()
class NotesStore {
  private notes = new Map([["welcome", { id: "welcome", title: "Welcome", body: "Hello" }]]);
  all() {
    return [...this.notes.values()];
  }
  get(id: string) {
    return this.notes.get(id);
  }
}

@McpService()
class NotesService {
  constructor(private readonly store: NotesStore) {} // injected

  @Tool({ description: "List notes", input: { tag: z.string().optional() } })
  listNotes() {
    return { notes: this.store.all().map(({ id, title }) => ({ id, title })) };
  }

  @Resource("notes://{id}", { mimeType: "application/json" })
  note({ id }: { id: string }) {
    return this.store.get(id) ?? { error: `no note ${id}` };
  }
}

@McpModule({ services: [NotesService], providers: [NotesStore] })
class AppModule {}

const app = await McpFactory.create(AppModule, { name: "notes", version: "1.0.0" });
await app.listen({ transport: "stdio" });
