import { describe, expect, it } from "vitest";
import { McpService } from "../../../src/decorators/mcp-service.decorator.js";
import { Tool } from "../../../src/decorators/tool.decorator.js";
import { InvocationSlot, newInvocation } from "../../../src/pipeline/invocation.js";
import type { ToolContext } from "../../../src/pipeline/tool-context.js";
import { invocationOf, toolOf } from "../../support/unit-build.js";

@McpService()
class Notes {
  @Tool() list() {
    return [];
  }
}
const definition = toolOf(Notes, "list");

describe("newInvocation", () => {
  it("starts a call with nothing decided: no input, no page, a keepable outcome", () => {
    const invocation = invocationOf(definition, { q: "x" }, { uri: undefined });
    expect(invocation.args).toEqual({ q: "x" });
    expect(invocation.input).toBeUndefined();
    expect(invocation.identity).toEqual([]);
    expect(invocation.outcome).toMatchObject({
      keepable: true,
      reports: undefined,
      tokens: undefined,
    });
    expect(invocation.shaped).toBeUndefined();
  });

  it("makes the context from the live call state, so it reads what stages set later", () => {
    let madeFrom: unknown;
    const invocation = newInvocation(definition, {}, undefined, (state) => {
      madeFrom = state;
      return {
        get signal() {
          return state.signal;
        },
      } as unknown as ToolContext;
    });
    expect(madeFrom).toBe(invocation);
    const signal = new AbortController().signal;
    invocation.signal = signal;
    expect(invocation.ctx.signal).toBe(signal);
  });

  it("gives each call its own outcome and identity", () => {
    const a = invocationOf(definition);
    const b = invocationOf(definition);
    a.outcome.keepable = false;
    a.identity.push("page-2");
    expect(b.outcome.keepable).toBe(true);
    expect(b.identity).toEqual([]);
  });
});

describe("InvocationSlot", () => {
  it("keeps a value per invocation between the stages of one capability", () => {
    const slot = new InvocationSlot<{ limit: number }>("pagination.request");
    const a = invocationOf(definition);
    const b = invocationOf(definition);
    slot.set(a, { limit: 3 });
    slot.set(b, { limit: 7 });
    expect(slot.get(a)).toEqual({ limit: 3 });
    expect(slot.get(b)).toEqual({ limit: 7 });
  });

  it("says which slot was read before it was set", () => {
    const slot = new InvocationSlot<number>("pagination.request");
    const invocation = invocationOf(definition);
    expect(() => slot.get(invocation)).toThrow(
      'pipeline slot "pagination.request" was read before it was set',
    );
    new InvocationSlot<number>("other").set(invocation, 1);
    expect(() => slot.get(invocation)).toThrow(/read before it was set/);
  });

  it("tells an undefined value that was set from one never set", () => {
    const slot = new InvocationSlot<undefined>("maybe");
    const invocation = invocationOf(definition);
    slot.set(invocation, undefined);
    expect(slot.get(invocation)).toBeUndefined();
  });
});
