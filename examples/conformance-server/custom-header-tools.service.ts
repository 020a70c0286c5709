import { McpService, Tool } from "frugal-mcp";
import { z } from "zod";

/**
 * SEP-2243 custom headers (2026-07-28): `region` carries `x-mcp-header: "Region"`, so a client
 * mirrors it into `Mcp-Param-Region` and the server checks that header against the body. The
 * suite's `http-custom-header-server-validation` scenario takes the first listed tool with an
 * `x-mcp-header` property and its first string-typed one, and calls it with "Hello",
 * "SGVsbG8=" and "=?base64?SGVsbG8=" (each must answer without a JSON-RPC error).
 */
@McpService()
export class CustomHeaderToolsService {
  @Tool({
    description: "Echoes region, which clients mirror into the Mcp-Param-Region header (SEP-2243)",
    // `.meta()` keeps the extension key in the property's JSON Schema.
    input: { region: z.string().meta({ "x-mcp-header": "Region" }) },
  })
  testCustomHeaders(args: { region: string }) {
    return `Region: ${args.region}`;
  }
}
