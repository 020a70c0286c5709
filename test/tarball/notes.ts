// The packed-tarball test's app (scripts/tarball-test.sh): the README's quick start, compiled
// by a fresh project against the installed tarball, once as ESM and once as CommonJS. It
// is written to compile under `strict` and `exactOptionalPropertyTypes` in both module
// systems (no top-level await, no import.meta).
import "reflect-metadata";
import { Ephemeral, Injectable, McpModule, McpService, Resource, Tool } from "frugal-mcp";
import { z } from "zod";

export interface Note {
  id: string;
  title: string;
  body: string;
}

@Injectable()
export class NotesStore {
  private readonly notes = new Map<string, Note>([
    ["welcome", { id: "welcome", title: "Welcome", body: "Hello" }],
  ]);

  get(id: string): Note | undefined {
    return this.notes.get(id);
  }

  add(title: string, body: string): Note {
    const note = { id: title.toLowerCase().replace(/[^a-z0-9]+/g, "-"), title, body };
    this.notes.set(note.id, note);
    return note;
  }

  count(): number {
    return this.notes.size;
  }

  all(): Note[] {
    return [...this.notes.values()];
  }
}

@McpService()
export class NotesService {
  constructor(private readonly store: NotesStore) {} // injected: needs emitDecoratorMetadata

  @Tool({ description: "Add a note", input: { title: z.string().min(1), body: z.string() } })
  addNote({ title, body }: { title: string; body: string }) {
    const note = this.store.add(title, body);
    return { id: note.id, uri: `notes://${note.id}`, count: this.store.count() };
  }

  // Stored as an ephemeral resource (the tokenizer, and RE2 for a regex search, in play: in a
  // bundle they must load as they do from node_modules).
  @Tool({ description: "Export every note" })
  @Ephemeral({ when: "always", mimeType: "application/json" })
  exportNotes() {
    return this.store.all();
  }

  @Resource("notes://{id}", { mimeType: "application/json" })
  note({ id }: { id: string }) {
    return this.store.get(id) ?? { error: `no note ${id}` };
  }
}

@McpModule({ services: [NotesService], providers: [NotesStore] })
export class AppModule {}

// Compile-time checks only (no module lists this service): the README's `{ tag?: string }`
// for an optional field compiles under `exactOptionalPropertyTypes` because handlers receive
// optional fields without `| undefined`, and an optional field's type is still checked.
@McpService()
export class TypedHandlerChecks {
  @Tool({ description: "Count notes", input: { tag: z.string().optional() } })
  countNotes({ tag }: { tag?: string }) {
    return { count: 0, tag: tag ?? null };
  }

  // @ts-expect-error an optional field's type is still checked
  @Tool({ input: { tag: z.string().optional() } })
  wrongTagType({ tag }: { tag?: number }) {
    return { tag };
  }
}
