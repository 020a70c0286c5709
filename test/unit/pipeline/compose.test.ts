import { describe, expect, it } from "vitest";
import { McpService } from "../../../src/decorators/mcp-service.decorator.js";
import { Tool } from "../../../src/decorators/tool.decorator.js";
import { compose } from "../../../src/pipeline/compose.js";
import type { Stage } from "../../../src/pipeline/invocation.js";
import { invocationOf, toolOf } from "../../support/unit-build.js";

@McpService()
class Svc {
  @Tool() run() {}
}
const definition = toolOf(Svc, "run");

describe("compose", () => {
  it("runs stages outermost first, the core last, and results travel back inside out", async () => {
    const trace: string[] = [];
    const stage =
      (name: string): Stage =>
      async (_invocation, next) => {
        trace.push(`${name}>`);
        const result = await next();
        trace.push(`<${name}`);
        return `${name}(${String(result)})`;
      };
    const run = compose([stage("a"), stage("b")], async () => {
      trace.push("core");
      return "x";
    });
    expect(await run(invocationOf(definition))).toBe("a(b(x))");
    expect(trace).toEqual(["a>", "b>", "core", "<b", "<a"]);
  });

  it("lets a stage answer instead of calling next, so the core never runs", async () => {
    let coreRan = false;
    const refuse: Stage = async () => "refused";
    const run = compose([refuse], async () => {
      coreRan = true;
      return "x";
    });
    expect(await run(invocationOf(definition))).toBe("refused");
    expect(coreRan).toBe(false);
  });

  it("passes the same invocation to every stage and the core", async () => {
    const seen: unknown[] = [];
    const record: Stage = (invocation, next) => {
      seen.push(invocation);
      return next();
    };
    const invocation = invocationOf(definition);
    await compose([record, record], async (inner) => seen.push(inner))(invocation);
    expect(seen).toEqual([invocation, invocation, invocation]);
  });

  it("is the core alone without stages", async () => {
    const run = compose([], async (invocation) => invocation.args.n);
    expect(await run(invocationOf(definition, { n: 3 }))).toBe(3);
  });
});
