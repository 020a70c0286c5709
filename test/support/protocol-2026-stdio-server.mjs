// Child process of test/e2e/protocol-2026-stdio.test.ts (plain JS on the compiled package,
// `npm run build` first): a frugal-mcp app made with `protocol: "2026-07-28"`, on stdio.
await import("reflect-metadata");
const { z } = await import("zod");
const { McpFactory, McpModule, McpService, Tool } = await import("frugal-mcp");

class EchoService {
  echo({ text }) {
    return text;
  }
}
const descriptor = Object.getOwnPropertyDescriptor(EchoService.prototype, "echo");
Tool({ description: "Echo text", input: { text: z.string() } })(EchoService.prototype, "echo", descriptor);
McpService()(EchoService);
class EchoModule {}
McpModule({ services: [EchoService] })(EchoModule);

const app = await McpFactory.create(EchoModule, {
  name: "stdio-2026",
  version: "1.0.0",
  protocol: "2026-07-28",
});
await app.listen({ transport: "stdio" });
