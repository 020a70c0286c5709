import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import { CATALOGUE, type CatalogueControl, Inject, McpService, Tool } from "frugal-mcp";
import { z } from "zod";

const isAdmin = ({ auth }: { auth: AuthInfo | undefined }) => auth?.scopes.includes("admin") ?? false;

/**
 * A support desk with more tools than a model needs at once: under `catalogue.search` it
 * lists only `get_ticket` and `search_tools`, and a model finds the rest by what they do.
 * The admin tools exist only for callers with the `admin` scope.
 */
@McpService()
export class SupportDeskService {
  constructor(@Inject(CATALOGUE) private readonly catalogue: CatalogueControl) {}

  @Tool({ description: "Get a support ticket by its id", input: { id: z.string() } })
  getTicket({ id }: { id: string }) {
    return { id, status: "open", subject: "Cannot log in" };
  }

  @Tool({
    description: "Search tickets by text and status",
    input: { text: z.string(), status: z.enum(["open", "closed"]).optional() },
  })
  searchTickets({ text }: { text: string }) {
    return [{ id: "T-1", subject: `About ${text}` }];
  }

  @Tool({ description: "Reply to the customer on a ticket", input: { id: z.string(), message: z.string() } })
  replyToTicket({ id }: { id: string }) {
    return { id, replied: true };
  }

  @Tool({ description: "Close a ticket as solved", input: { id: z.string(), resolution: z.string() } })
  closeTicket({ id }: { id: string }) {
    return { id, status: "closed" };
  }

  @Tool({ description: "Look up a customer's account and plan", input: { email: z.string() } })
  getCustomer({ email }: { email: string }) {
    return { email, plan: "pro" };
  }

  @Tool({ description: "Refund a customer's last invoice", input: { email: z.string(), amount: z.number() } })
  issueRefund({ email, amount }: { email: string; amount: number }) {
    return { email, refunded: amount };
  }

  @Tool({ description: "Reset a customer's password and email them a link", input: { email: z.string() } })
  resetPassword({ email }: { email: string }) {
    return { email, sent: true };
  }

  @Tool({
    description: "Escalate a ticket to the on-call engineer",
    input: { id: z.string(), severity: z.enum(["low", "high"]) },
  })
  escalateTicket({ id }: { id: string }) {
    return { id, escalated: true };
  }

  @Tool({
    description: "Delete a customer's account and data",
    input: { email: z.string() },
    visibleTo: isAdmin,
  })
  deleteCustomer({ email }: { email: string }) {
    return { email, deleted: true };
  }

  @Tool({
    description: "Pause or resume refunds for every agent, on every instance",
    input: { paused: z.boolean() },
    visibleTo: isAdmin,
  })
  async pauseRefunds({ paused }: { paused: boolean }) {
    // Every client is told that its tool list changed; issue_refund is refused as unknown meanwhile.
    await (paused ? this.catalogue.disable("issue_refund") : this.catalogue.enable("issue_refund"));
    return { refunds: paused ? "paused" : "enabled" };
  }
}
