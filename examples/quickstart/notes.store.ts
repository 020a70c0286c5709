import { Injectable } from "frugal-mcp";

/** One note. */
export interface Note {
  id: string;
  title: string;
  body: string;
  tags: string[];
}

/** A tiny in-memory store, injected into the service by the DI container. */
@Injectable()
export class NotesStore {
  private readonly notes = new Map<string, Note>([
    [
      "welcome",
      { id: "welcome", title: "Welcome", body: "frugal-mcp keeps results small.", tags: ["intro"] },
    ],
    [
      "pagination",
      { id: "pagination", title: "Pagination", body: "Pages use signed cursors.", tags: ["docs"] },
    ],
  ]);

  all(): Note[] {
    return [...this.notes.values()];
  }

  get(id: string): Note | undefined {
    return this.notes.get(id);
  }

  add(title: string, body: string, tags: string[]): Note {
    const id =
      title
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, "-")
        .replace(/^-|-$/g, "") || `note-${this.notes.size + 1}`;
    const note = { id, title, body, tags };
    this.notes.set(id, note);
    return note;
  }
}
