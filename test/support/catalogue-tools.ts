import { McpModule, McpService, Tool } from "frugal-mcp";
import { z } from "zod";

/** A server with many tools of several domains, for `catalogue: { search: true }`. */
@McpService()
export class ManyToolsService {
  @Tool({ description: "Show the status of the service", title: "Status" })
  getStatus() {
    return { ok: true };
  }

  @Tool({
    description: "Open a pull request from a branch",
    input: { repository: z.string(), head: z.string(), base: z.string(), title: z.string() },
  })
  createPullRequest({ title }: { title: string }) {
    return { number: 7, title };
  }

  @Tool({
    description: "Merge a pull request once its checks pass",
    input: { repository: z.string(), number: z.number() },
  })
  mergePullRequest({ number }: { number: number }) {
    return { merged: number };
  }

  @Tool({
    description: "List the open issues of a repository",
    input: { repository: z.string(), label: z.string().optional() },
  })
  listIssues() {
    return { issues: [] };
  }

  @Tool({ description: "Remove a file from the workspace", input: { path: z.string() } })
  deleteFile({ path }: { path: string }) {
    return { deleted: path };
  }

  @Tool({
    description: "Read the contents of a file",
    input: { path: z.string(), encoding: z.string().optional() },
  })
  readFile({ path }: { path: string }) {
    return { path, text: "…" };
  }

  @Tool({
    description: "Send an email message",
    input: { to: z.string(), subject: z.string(), body: z.string() },
  })
  sendEmail({ to }: { to: string }) {
    return { sent: to };
  }

  @Tool({
    description: "Book a meeting in the calendar",
    input: { attendees: z.array(z.string()), start: z.string() },
  })
  scheduleMeeting() {
    return { booked: true };
  }

  @Tool({ description: "Current weather for a city", input: { city: z.string() } })
  weatherNow({ city }: { city: string }) {
    return { city, celsius: 21 };
  }

  @Tool({
    description: "Convert an amount between currencies",
    input: { amount: z.number(), from: z.string(), to: z.string() },
  })
  convertCurrency({ amount }: { amount: number }) {
    return { amount };
  }

  @Tool({
    description: "Drop every cached page",
    visibleTo: ({ auth }) => auth?.scopes.includes("admin") ?? false,
  })
  purgeCache() {
    return { purged: true };
  }
}

@McpModule({ services: [ManyToolsService] })
export class ManyToolsModule {}
