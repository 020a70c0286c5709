import type { Registry } from "../../builder/registry.js";
import { Cached } from "../../cache/cached.capability.js";
import { Ephemeral } from "../../ephemeral/ephemeral.capability.js";
import { specOf } from "../../pipeline/capability.js";

/** Why a stateless request cannot subscribe, and what to do instead. */
export const SUBSCRIBE_REFUSED =
  "resources/subscribe is not available on a stateless HTTP server: there is no session to deliver notifications/resources/updated on. Read the resource again when you need it (cached reads are cheap), or connect to a stateful server (stateless: false) to subscribe";

/** Why `ctx.elicit` or `ctx.sample` cannot run in a stateless request. */
export function serverRequestRefused(method: string): string {
  return `${method} is not available on a stateless HTTP server: every request stands alone, so the client's answer to a request from the server could reach another instance. Take the value as a tool argument (or return a result asking the user for it), or serve this tool from a stateful server (stateless: false, with sticky sessions behind a load balancer)`;
}

/** Why `ctx.resources` cannot be used by an anonymous stateless request. */
export const ANONYMOUS_RESOURCES_REFUSED =
  "ctx.resources needs an owner that outlives the request, and this stateless request has no authenticated principal: configure authenticate on the HTTP server (or serve statefully)";

/**
 * The operations whose data belongs to each owner: tools cached or spilled with
 * `scope: "owner"`, resources cached per owner. A stateless server needs authenticated
 * principals to serve them (see `statelessSettingsProblem`).
 */
export function ownerScopedFeatures(registry: Registry): string[] {
  const operations = [
    ...registry.tools.values(),
    ...registry.staticResources.values(),
    ...registry.templates,
    ...registry.prompts.values(),
  ];
  return operations.flatMap(({ definition }) => [
    ...(specOf(definition, Cached.capability)?.scope === "owner"
      ? [`${definition.where} (@Cached, scope "owner")`]
      : []),
    ...(specOf(definition, Ephemeral.capability)?.scope === "owner"
      ? [`${definition.where} (@Ephemeral, scope "owner")`]
      : []),
  ]);
}
