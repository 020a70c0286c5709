import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";
import type { ServedSession } from "../protocol/session.js";
import type { SessionRecord } from "../sessions/session-store.js";
import type { SessionBinding } from "../transports/session-host.js";
import { reviveServer } from "../transports/session-revival.js";
import type { McpAppOptions } from "./app-options.js";

/**
 * The SDK 1.x server of one 2025 session. A stateless request has no stream to notify on
 * later: its server offers no subscriptions or list changes. The JSON-schema validator is the
 * app's, shared by every session (compiling schemas is the costly part of a server).
 *
 * @example
 * const server = sessionServer(options, validator, false);
 */
export function sessionServer(
  options: Pick<McpAppOptions, "name" | "version" | "instructions">,
  validator: jsonSchemaValidator,
  stateless: boolean,
): Server {
  return new Server(
    { name: options.name, version: options.version },
    {
      capabilities: stateless
        ? { tools: {}, resources: {}, prompts: {}, logging: {}, completions: {} }
        : {
            tools: { listChanged: true },
            resources: { subscribe: true, listChanged: true },
            prompts: { listChanged: true },
            logging: {},
            completions: {},
          },
      ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
      jsonSchemaValidator: validator,
    },
  );
}

/**
 * Ties a session to its record in the session store: its changes are saved there, what other
 * instances change there is applied to it, and a session opened on another instance is
 * rebuilt from the record (its server told what the client declared at `initialize`).
 *
 * @example
 * bindSession(session, options.session); // options of app.connect
 */
export function bindSession(session: ServedSession, binding: SessionBinding): void {
  session.persist = (change) => binding.persist(change);
  session.notifiesHere = () => binding.notifiesHere();
  // What other instances serving the session may change: taken from its record.
  const apply = (record: SessionRecord) => {
    session.logLevel = record.logLevel;
    session.subscriptions.clear();
    for (const uri of record.subscriptions) session.subscriptions.add(uri);
  };
  binding.follow(apply);
  if (binding.revive) {
    reviveServer(session.server, binding.revive);
    apply(binding.revive);
  }
}
