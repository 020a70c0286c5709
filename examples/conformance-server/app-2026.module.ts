import { McpModule } from "frugal-mcp";
import { ConformanceModule } from "./app.module.js";
import { CustomHeaderToolsService } from "./custom-header-tools.service.js";
import { InputRequiredToolsService } from "./input-required-tools.service.js";
import { ListChangeHooksService } from "./list-change-hooks.service.js";

/**
 * The conformance server for MCP 2026-07-28 (`MCP_PROTOCOL=2026-07-28`): the 2025 fixtures,
 * plus the diagnostic tools and the prompt that the suite's 2026-07-28 scenarios call
 * (input-required results, the per-request envelope, SEP-2243 `x-mcp-header`, the
 * list-change hooks `test_trigger_tool_change` and `test_trigger_prompt_change`). Kept apart
 * so the 2025 fixture keeps exactly the tools the 2025 suite knows.
 */
@McpModule({
  imports: [ConformanceModule],
  services: [InputRequiredToolsService, CustomHeaderToolsService, ListChangeHooksService],
})
export class Conformance2026Module {}
