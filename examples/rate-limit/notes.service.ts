import { Cached, McpService, Resource, Tool } from "frugal-mcp";
import { z } from "zod";
import { RateLimit } from "./rate-limit.capability.js";

const NOTES = [
  "buy milk",
  "call Ada about the timeout bug",
  "renew the TLS certificate",
  "timeout in the search tool",
];

@McpService()
export class NotesService {
  /** How many times the handler ran (the example's tests read it). */
  searches = 0;

  @Tool({ description: "Search notes by a word", input: { query: z.string().min(1) } })
  @RateLimit(5, { per: "minute" })
  @Cached({ ttl: 60_000 })
  async search({ query }: { query: string }) {
    this.searches++;
    return NOTES.filter((note) => note.includes(query));
  }

  @Resource("notes://all", { mimeType: "application/json" })
  @RateLimit(2, { per: "second" })
  async all() {
    return NOTES;
  }
}
