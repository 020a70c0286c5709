import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Budget } from "../../../src/budget/budget.capability.js";
import { buildRegistry } from "../../../src/builder/build-registry.js";
import { declareTool } from "../../../src/builder/declared-service.js";
import { recordingLogger } from "../../support/unit-build.js";

class ResourceTools {
  readResource({ uri }: { uri: string }) {
    return `read ${uri}`;
  }
}

describe("declareTool", () => {
  it("declares a tool as data: a frozen member with the options @Tool would take", () => {
    const options = { name: "read_resource", input: { uri: z.string() } };
    const budget = { capability: Budget.capability, options: { tokens: 500, options: {} } };
    const member = declareTool(ResourceTools, "readResource", options, { capabilities: [budget] });
    options.name = "changed";
    expect(member.property).toBe("readResource");
    expect(member.declaredOn).toBe(ResourceTools);
    expect(member.metadata).toMatchObject({
      memberKind: "method",
      tool: { name: "read_resource" },
      capabilities: [budget],
    });
    expect(Object.isFrozen(member)).toBe(true);
    expect(Object.isFrozen(member.metadata.tool)).toBe(true);
  });

  it("builds like a decorated method, though the class carries no decorator", () => {
    const instance = new ResourceTools();
    const registry = buildRegistry(
      [
        {
          serviceClass: ResourceTools,
          instance,
          members: [
            declareTool(ResourceTools, "readResource", { name: "read_resource", input: { uri: z.string() } }),
          ],
        },
      ],
      {
        stages: [],
        services: { resolve: () => undefined as never, logger: recordingLogger() },
      },
    );
    const tool = registry.tools.get("read_resource")?.definition;
    expect(tool?.where).toBe("ResourceTools.readResource");
    expect(tool?.handler({ uri: "x://1" }, {} as never)).toBe("read x://1");
  });
});
