import { McpModule } from "frugal-mcp";
import { ConformanceModule } from "./app.module.js";
import { CustomHeaderToolsService } from "./custom-header-tools.service.js";
import { InputRequiredToolsService } from "./input-required-tools.service.js";

/**
 * The conformance server for MCP 2026-07-28 (`MCP_PROTOCOL=2026-07-28`): the 2025 fixtures,
 * plus the diagnostic tools and the prompt that the suite's 2026-07-28 scenarios call
 * (input-required results, the per-request envelope, SEP-2243 `x-mcp-header`). Kept apart
 * so the 2025 fixture keeps exactly the tools the 2025 suite knows.
 */
@McpModule({ imports: [ConformanceModule], services: [InputRequiredToolsService, CustomHeaderToolsService] })
export class Conformance2026Module {}
