import { McpModule } from "frugal-mcp";
import { ContentToolsService } from "./content-tools.service.js";
import { InteractiveToolsService } from "./interactive-tools.service.js";
import { TestMedia } from "./test-media.js";
import { TestPromptsService } from "./test-prompts.service.js";
import { TestResourcesService } from "./test-resources.service.js";
import { WATCH_INTERVAL_MS, WatchedResource } from "./watched-resource.js";

/**
 * The MCP conformance suite's "everything" server, as a frugal-mcp module. The watched
 * resource stays still unless `WATCH_INTERVAL_MS` is provided (main.ts sets it; tests call
 * `app.get(WatchedResource).update()` instead).
 */
@McpModule({
  services: [ContentToolsService, InteractiveToolsService, TestResourcesService, TestPromptsService],
  providers: [TestMedia, WatchedResource, { provide: WATCH_INTERVAL_MS, useValue: 0 }],
})
export class ConformanceModule {}
