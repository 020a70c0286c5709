import {
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ReadResourceRequestSchema,
  type Resource,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { resourceNotFound } from "../errors/protocol-errors.js";
import type { AppRuntime } from "./app-runtime.js";
import { pageOfList } from "./list-pages.js";
import type { RunOperation } from "./registrar.js";
import type { Session } from "./session.js";

/** Installs `resources/*` handlers: listing, reading (static URIs, then templates), subscriptions. */
export function installResourceHandlers(session: Session, runtime: AppRuntime, run: RunOperation): void {
  const { server } = session;
  const { registry } = runtime;
  const staticListings = [...registry.staticResources.values()].map((o) => o.definition.listing as Resource);
  const templateListings = registry.templates.map((o) => o.definition.listing);
  const listers = registry.templates.flatMap((o) => (o.definition.list ? [o.definition.list] : []));

  server.setRequestHandler(ListResourcesRequestSchema, async (request) => {
    const listed = await Promise.all(listers.map((list) => list()));
    const all = [...staticListings, ...listed.flat()];
    const page = pageOfList(all, request.params?.cursor, runtime.listPageSize, "resources/list");
    return { resources: page.items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
  });

  server.setRequestHandler(ListResourceTemplatesRequestSchema, (request) => {
    const page = pageOfList(
      templateListings,
      request.params?.cursor,
      runtime.listPageSize,
      "resources/templates/list",
    );
    return { resourceTemplates: page.items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
  });

  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
    const { uri } = request.params;
    const exact = registry.staticResources.get(uri);
    if (exact) return (await run(session, exact, {}, extra, uri)) as never;
    for (const template of registry.templates) {
      const variables = template.definition.template?.match(uri);
      if (variables) return (await run(session, template, variables, extra, uri)) as never;
    }
    throw resourceNotFound(uri);
  });

  server.setRequestHandler(SubscribeRequestSchema, (request) => {
    session.subscriptions.add(request.params.uri);
    return {};
  });

  server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
    session.subscriptions.delete(request.params.uri);
    return {};
  });
}
