import { Cached, Invalidates, McpService, Tool, type ToolContext, UseInterceptors } from "frugal-mcp";
import { z } from "zod";
import { RequireScope } from "./require-scope.interceptor.js";

/** One note, and who wrote it (the token's client id). */
export interface Note {
  id: number;
  text: string;
  author: string;
}

/**
 * Notes behind scopes: reading needs `notes:read`, writing `notes:write`. The scope check
 * is an interceptor on each method, so it runs before `@Cached`: a token without the
 * scope is refused even when the list is in the cache.
 */
@McpService()
export class NotesService {
  private readonly notes: Note[] = [{ id: 1, text: "Interceptors run before the cache.", author: "seed" }];

  @Tool({ description: "List the notes", annotations: { readOnlyHint: true } })
  @UseInterceptors(RequireScope("notes:read"))
  @Cached({ ttl: 60_000, scope: "global", invalidateOn: ["notes.changed"] })
  listNotes() {
    return { notes: this.notes };
  }

  @Tool({ description: "Add a note", input: { text: z.string().min(1).max(2_000) } })
  @UseInterceptors(RequireScope("notes:write"))
  @Invalidates("notes.changed")
  addNote({ text }: { text: string }, ctx: ToolContext) {
    const note = { id: this.notes.length + 1, text, author: ctx.auth?.clientId ?? "anonymous" };
    this.notes.push(note);
    return note;
  }
}
