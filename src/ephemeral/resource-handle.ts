import type { CreateResourceOptions, EphemeralResources } from "./ephemeral-resources.js";
import { ResourceLimitError } from "./ephemeral-resources.js";
import { type ResourceSlice, readSlice } from "./resource-slices.js";
import type { StoredResourceMeta } from "./storage.js";

/** What a handler learns about a resource it created or changed. */
export interface ResourceInfo {
  uri: string;
  name: string;
  mimeType: string;
  size: number;
  /** Items, lines or bytes. */
  total: number;
  version: number;
  createdAt: string;
  expiresAt: string;
}

/**
 * `ctx.resources`: ephemeral resources by hand, owned by the caller.
 *
 * @example
 * ```ts
 * const report = await ctx.resources.create(rows, { name: "Q3 report", ttl: 600_000 });
 * return [resourceLink({ uri: report.uri, name: report.name }), text(`${report.total} rows stored`)];
 * ```
 */
export interface ResourceHandle {
  create(content: unknown, options?: Omit<CreateResourceOptions, "tool">): Promise<ResourceInfo>;
  /** Replaces the content of a resource this caller created; its version goes up by one. */
  update(uri: string, content: unknown): Promise<ResourceInfo>;
  delete(uri: string): Promise<boolean>;
  /** A slice (items, lines or bytes from `offset`), not held to a budget: this is the server reading. */
  read(uri: string, range?: { offset?: number; limit?: number }): Promise<ResourceSlice>;
}

/** The handle of one call: everything it creates belongs to `owner`. */
export function resourceHandle(resources: EphemeralResources, owner: string, tool: string): ResourceHandle {
  return {
    create: async (content, options = {}) =>
      info(await resources.create(content, { ...options, tool }, owner)),
    update: async (uri, content) => info(await resources.update(uri, content, owner)),
    delete: (uri) => resources.delete(uri, owner),
    read: async (uri, range = {}) => {
      const meta = await resources.stat(uri, owner);
      if (!meta) throw new ResourceLimitError(`Resource not found: ${uri}`);
      return readSlice(resources.storage, meta, range.offset ?? 0, range.limit ?? 200);
    },
  };
}

function info(meta: StoredResourceMeta): ResourceInfo {
  return {
    uri: meta.uri,
    name: meta.name,
    mimeType: meta.mimeType,
    size: meta.size,
    total: meta.total,
    version: meta.version,
    createdAt: new Date(meta.createdAt).toISOString(),
    expiresAt: new Date(meta.expiresAt).toISOString(),
  };
}
