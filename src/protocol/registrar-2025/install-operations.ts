import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { installHandler } from "../../sdk/sdk1-adapter.js";
import type { OperationTable } from "../operations/operation.js";
import type { Session } from "../session.js";

/**
 * The 2025-11-25 registrar: the one place that installs request handlers on a session's own
 * SDK 1.x `Server`, one per operation of the app's table.
 */
export function installOperations(server: Server, session: Session, table: OperationTable): void {
  for (const { schema, handle } of table)
    installHandler(server, schema, (request, extra) => handle(session, request, extra));
}
