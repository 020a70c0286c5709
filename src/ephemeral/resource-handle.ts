import type { ResourceHandle, ResourceInfo } from "../pipeline/resource-handle.js";
import type { StoredResourceMeta } from "../storage/storage.js";
import type { EphemeralResources } from "./ephemeral-resources.js";
import { ResourceNotFoundError } from "./resource-errors.js";
import { readSlice } from "./resource-slices.js";

/** The handle of one call: everything it creates belongs to `owner`. */
export function resourceHandle(resources: EphemeralResources, owner: string, tool: string): ResourceHandle {
  return {
    create: async (content, options = {}) =>
      info(await resources.create(content, { ...options, tool }, owner)),
    update: async (uri, content) => info(await resources.update(uri, content, owner)),
    delete: (uri) => resources.delete(uri, owner),
    read: async (uri, range = {}) => {
      const meta = await resources.stat(uri, owner);
      if (!meta) throw new ResourceNotFoundError(uri);
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
