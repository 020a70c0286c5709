import type { IncomingMessage } from "node:http";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import { type CatalogueOptions, McpModule } from "frugal-mcp";
import { SupportDeskService } from "./support-desk.service.js";

@McpModule({ services: [SupportDeskService] })
export class SupportDeskModule {}

/** tools/list: get_ticket and search_tools; search finds the rest. */
export const CATALOGUE_OPTIONS: CatalogueOptions = { search: true, pinned: ["get_ticket"] };

const inAnHour = () => Date.now() / 1000 + 3600;
/** Demo tokens (use your identity provider's verifier): an agent, and an admin. */
const TOKENS: Record<string, AuthInfo> = {
  "agent-token": { token: "agent-token", clientId: "agent", scopes: ["tickets"], expiresAt: inAnHour() },
  "admin-token": {
    token: "admin-token",
    clientId: "admin",
    scopes: ["tickets", "admin"],
    expiresAt: inAnHour(),
  },
};

/** The HTTP listener's `authenticate`: the bearer token's principal, or nobody (401). */
export const authenticate = (req: IncomingMessage) =>
  TOKENS[req.headers.authorization?.replace(/^Bearer /, "") ?? ""];
