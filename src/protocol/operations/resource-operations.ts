import {
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type Resource,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { EphemeralResources } from "../../ephemeral/ephemeral-resources.js";
import { invalidParams, resourceNotFound } from "../../errors/protocol-errors.js";
import type { OperationCaller } from "../../metadata/definitions.js";
import type { StoredResourceMeta } from "../../storage/storage.js";
import { MAX_URI_LENGTH, uriTooLong } from "../../uri/uri-limits.js";
import type { AppRuntime } from "../app-runtime.js";
import { callerOf } from "../calls/caller.js";
import { ownerOf } from "../calls/owner.js";
import type { ReadStored, RunOperation } from "../calls/run-operation.js";
import { SUBSCRIBE_REFUSED } from "../registrar-2025/stateless-session.js";
import { findDeclaredResource } from "./declared-resources.js";
import { pageOfList } from "./list-pages.js";
import { operation, type ProtocolOperation } from "./operation.js";

/** The key of the ephemeral storage in `app.stats().resources.listFailures`. */
const EPHEMERAL_LISTING = "ephemeral storage";

/** `resources/*`: listing (what the caller may see), reading (static URIs, then templates), subscriptions. */
export function resourceOperations(
  runtime: AppRuntime,
  run: RunOperation,
  readStored: ReadStored,
): ProtocolOperation[] {
  const { registry, catalogue } = runtime;

  const list = operation(ListResourcesRequestSchema, async (session, request, extra) => {
    const owner = ownerOf(runtime, session, extra);
    const caller = callerOf(runtime, session, extra);
    const all = await listedResources(runtime, owner, caller);
    const page = pageOfList(all, request.params?.cursor, runtime.listPageSize, "resources/list");
    return { resources: page.items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
  });

  const listTemplates = operation(ListResourceTemplatesRequestSchema, async (session, request, extra) => {
    const templates = await catalogue.visible(registry.templates, callerOf(runtime, session, extra));
    const page = pageOfList(
      templates.map((o) => o.definition.listing),
      request.params?.cursor,
      runtime.listPageSize,
      "resources/templates/list",
    );
    return { resourceTemplates: page.items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
  });

  const read = operation(ReadResourceRequestSchema, async (session, request, extra) => {
    const { uri } = request.params;
    // Refused before any work that grows with it (template matching, lookups, hashing).
    const tooLong = uriTooLong(uri);
    if (tooLong) throw invalidParams(`Invalid params: ${tooLong}`, { maxLength: MAX_URI_LENGTH });
    const stored = () => readStored(session, extra, uri, (owner) => readEphemeral(runtime, uri, owner));
    if (EphemeralResources.handles(uri)) return stored();
    const found = findDeclaredResource(registry, uri);
    // A hidden or disabled resource reads as a URI nobody declared.
    if (found && (await catalogue.admits(found.operation.definition, callerOf(runtime, session, extra))))
      return await run(session, found.operation, found.args, extra, uri);
    // A URI a handler chose for an ephemeral resource (`ctx.resources.create(…, { uri })`); -32002 if none.
    return stored();
  });

  // A stateless request has no stream to deliver notifications/resources/updated on.
  const subscribe = operation(SubscribeRequestSchema, async (session, request) => {
    if (session.stateless) throw new McpError(ErrorCode.MethodNotFound, SUBSCRIBE_REFUSED);
    session.subscriptions.add(request.params.uri);
    await session.persist?.({ subscribe: request.params.uri });
    return {};
  });
  const unsubscribe = operation(UnsubscribeRequestSchema, async (session, request) => {
    if (session.stateless) throw new McpError(ErrorCode.MethodNotFound, SUBSCRIBE_REFUSED);
    session.subscriptions.delete(request.params.uri);
    await session.persist?.({ unsubscribe: request.params.uri });
    return {};
  });
  return [list, listTemplates, read, subscribe, unsubscribe];
}

/**
 * Every resource `caller` may see: the static ones, each template's `list`, and the owner's
 * ephemeral resources. One failing source (a dead storage, a throwing `list`) never fails the
 * whole listing: the others still answer; the failure is logged and counted.
 */
async function listedResources(
  runtime: AppRuntime,
  owner: string,
  caller: () => OperationCaller,
): Promise<Resource[]> {
  const { registry, catalogue } = runtime;
  const [statics, templates] = await Promise.all([
    catalogue.visible(registry.staticResources.values(), caller),
    catalogue.visible(registry.templates, caller),
  ]);
  const sources = [
    ...templates.flatMap(({ definition }) =>
      definition.list
        ? [
            {
              key: definition.uri,
              source: `the list of ${definition.uri} (${definition.where})`,
              list: definition.list,
            },
          ]
        : [],
    ),
    {
      key: EPHEMERAL_LISTING,
      source: "the ephemeral resources in storage",
      list: async () => (await runtime.ephemeral.list(owner)).map(ephemeralListing),
    },
  ];
  const listed = await Promise.allSettled(sources.map(({ list }) => list()));
  const all: Resource[] = statics.map((o) => o.definition.listing as Resource);
  listed.forEach((outcome, index) => {
    if (outcome.status === "fulfilled") all.push(...outcome.value);
    else {
      runtime.metrics.recordListFailure(sources[index]?.key ?? "unknown");
      runtime.logger.error(
        `resources/list: ${sources[index]?.source} failed; listing the rest`,
        outcome.reason,
      );
    }
  });
  return all;
}

function ephemeralListing(meta: StoredResourceMeta): Resource {
  return {
    uri: meta.uri,
    name: meta.name,
    mimeType: meta.mimeType,
    ...(meta.description === undefined ? {} : { description: meta.description }),
    size: meta.size,
    _meta: {
      size: meta.size,
      version: meta.version,
      createdAt: new Date(meta.createdAt).toISOString(),
      expiresAt: new Date(meta.expiresAt).toISOString(),
    },
  };
}

/** A whole ephemeral resource, or -32002 when it is missing, expired or someone else's. */
async function readEphemeral(runtime: AppRuntime, uri: string, owner: string) {
  const meta = await runtime.ephemeral.stat(uri, owner);
  if (!meta) throw resourceNotFound(uri);
  const maxBytes = runtime.ephemeral.settings.maxReadBytes ?? 16 * 1024 * 1024;
  if (meta.size > maxBytes) {
    throw invalidParams(
      `${uri} is ${meta.size} bytes, more than resources/read returns at once (${maxBytes}); read it in slices with read_resource`,
      { uri, size: meta.size, maxReadBytes: maxBytes },
    );
  }
  const content = await runtime.ephemeral.readAll(meta);
  const _meta = { version: meta.version, expiresAt: new Date(meta.expiresAt).toISOString() };
  if (meta.kind === "bytes")
    return { contents: [{ uri, mimeType: meta.mimeType, blob: content.toString("base64"), _meta }] };
  return { contents: [{ uri, mimeType: meta.mimeType, text: content.toString("utf8"), _meta }] };
}
