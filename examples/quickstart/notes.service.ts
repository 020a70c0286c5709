import {
  McpService,
  Prompt,
  Resource,
  resourceNotFound,
  Tool,
  type ToolContext,
  toolError,
} from "frugal-mcp";
import { z } from "zod";
import { NotesStore } from "./notes.store.js";

/** Tools, a resource template and a prompt over the notes store. */
@McpService()
export class NotesService {
  constructor(private readonly store: NotesStore) {}

  @Tool({
    description: "List notes, optionally only those with a tag",
    input: { tag: z.string().optional().describe("only notes with this tag") },
    annotations: { readOnlyHint: true },
  })
  listNotes({ tag }: { tag?: string }) {
    const notes = this.store.all().filter((n) => tag === undefined || n.tags.includes(tag));
    return { notes: notes.map(({ id, title }) => ({ id, title })) };
  }

  @Tool({
    description: "Add a note",
    input: {
      title: z.string().min(1).max(200),
      body: z.string().max(10_000),
      tags: z.array(z.string()).max(10).default([]),
    },
  })
  async addNote(input: { title: string; body: string; tags: string[] }, ctx: ToolContext) {
    const note = this.store.add(input.title, input.body, input.tags);
    await ctx.log.info(`added note ${note.id}`);
    return { id: note.id, uri: `notes://${note.id}` };
  }

  @Tool({ description: "Read one note", input: { id: z.string() } })
  readNote({ id }: { id: string }) {
    const note = this.store.get(id);
    return note ?? toolError(`No note "${id}". Call list_notes to see the ids.`);
  }

  @Resource("notes://{id}", {
    description: "A note as JSON",
    mimeType: "application/json",
    list(this: NotesService) {
      return this.store.all().map((n) => ({ uri: `notes://${n.id}`, name: n.title }));
    },
    complete: {
      id(this: NotesService, prefix: string) {
        return this.store
          .all()
          .map((n) => n.id)
          .filter((id) => id.startsWith(prefix));
      },
    },
  })
  note({ id }: { id: string }) {
    // A missing note is JSON-RPC -32002 (resource not found), as the protocol says.
    const note = this.store.get(id);
    if (!note) throw resourceNotFound(`notes://${id}`);
    return note;
  }

  @Prompt({ description: "Ask the model to summarize a note", input: { id: z.string().describe("note id") } })
  summarize({ id }: { id: string }) {
    const note = this.store.get(id);
    return `Summarize this note in one sentence:\n\n${note ? `${note.title}\n${note.body}` : "(missing)"}`;
  }
}
