import { Cached, McpService, Resource } from "frugal-mcp";
import { TestMedia } from "./test-media.js";
import { WATCHED_RESOURCE_CHANGED, WatchedResource } from "./watched-resource.js";

/** Resources: a text, a binary, a template, and a subscribable resource that changes. */
@McpService()
export class TestResourcesService {
  constructor(
    private readonly media: TestMedia,
    private readonly watched: WatchedResource,
  ) {}

  @Resource("test://static-text", {
    name: "static-text",
    title: "Static Text Resource",
    description: "A static text resource for testing",
    mimeType: "text/plain",
  })
  staticText() {
    return "This is the content of the static text resource.";
  }

  @Resource("test://static-binary", {
    name: "static-binary",
    title: "Static Binary Resource",
    description: "A static binary resource (image) for testing",
    mimeType: "image/png",
  })
  staticBinary() {
    return this.media.png; // bytes: sent as a base64 blob
  }

  @Resource("test://template/{id}/data", {
    name: "template",
    title: "Resource Template",
    description: "A resource template with parameter substitution",
    mimeType: "application/json",
  })
  templateData({ id }: { id: string }) {
    return { id, templateTest: true, data: `Data for ID: ${id}` };
  }

  @Resource("test://watched-resource", {
    name: "watched-resource",
    title: "Watched Resource",
    description: "A resource that changes over time; subscribe to be told when it does",
    mimeType: "text/plain",
  })
  // Served from the cache until it changes; the change event drops the cached copy and makes
  // the framework send notifications/resources/updated to every subscribed session.
  @Cached({ ttl: 60 * 60_000, invalidateOn: [WATCHED_RESOURCE_CHANGED] })
  watchedResource() {
    return this.watched.content;
  }
}
