import { McpService, Tool, type ToolContext } from "frugal-mcp";
import { z } from "zod";

/** A ledger kept in memory for the demo: each transfer is one side effect, run once per request. */
export class Ledger {
  readonly transfers: Array<{ owner: string; to: string; amount: number; region: string }> = [];
}

@McpService()
export class TransfersService {
  constructor(private readonly ledger: Ledger) {}

  @Tool({
    description: "Send money after the user confirms with a PIN",
    input: {
      to: z.string(),
      amount: z.number().int().positive(),
      // SEP-2243: a 2026 client mirrors this argument in the Mcp-Param-Region header,
      // so a gateway can route on it; the front door refuses a request where they disagree.
      region: z.string().meta({ "x-mcp-header": "Region" }),
    },
  })
  async transfer(input: { to: string; amount: number; region: string }, ctx: ToolContext) {
    // Ask first, act after: on 2026-07-28 the handler runs again from the start with the answer.
    const answer = await ctx.elicit({
      message: `Send ${input.amount} to ${input.to}? Enter your PIN.`,
      requestedSchema: { type: "object", properties: { pin: { type: "string" } }, required: ["pin"] },
    });
    if (answer.action !== "accept" || answer.content?.pin !== "1234") return "Transfer cancelled.";
    this.ledger.transfers.push({ owner: ctx.owner, ...input });
    return `Sent ${input.amount} to ${input.to} as ${ctx.owner} (${this.ledger.transfers.length} transfer(s) so far).`;
  }

  @Tool({ description: "Who the server thinks you are" })
  whoami(_input: Record<string, unknown>, ctx: ToolContext) {
    return { owner: ctx.owner, clientId: ctx.auth?.clientId ?? null };
  }
}
