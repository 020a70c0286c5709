import { Cached, Invalidates, McpService, Resource, Tool, type ToolContext } from "frugal-mcp";
import { z } from "zod";

/** Free slots of the day (in memory here; a real app reads its database). */
const taken = new Map<string, string>();
const SLOTS = ["09:00", "10:00", "11:00", "14:00", "15:00"];

@McpService()
export class BookingsService {
  @Resource("slots://today", { description: "Free slots today", mimeType: "application/json" })
  @Cached({ ttl: 60_000, invalidateOn: ["slots.changed"] })
  slots() {
    return { free: SLOTS.filter((slot) => !taken.has(slot)) };
  }

  @Tool({
    description: "Books a slot; asks the user for the name to book it under",
    input: { slot: z.string() },
  })
  @Invalidates("slots.changed")
  async book({ slot }: { slot: string }, ctx: ToolContext) {
    if (!SLOTS.includes(slot) || taken.has(slot)) return { booked: false, reason: `${slot} is not free` };
    // The answer may come back through any instance: it reaches this call wherever it runs.
    const answer = await ctx.elicit({
      message: `Book ${slot} under which name?`,
      requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
    });
    if (answer.action !== "accept") return { booked: false, reason: "cancelled" };
    taken.set(slot, String(answer.content?.name));
    return { booked: true, slot, name: answer.content?.name };
  }
}
