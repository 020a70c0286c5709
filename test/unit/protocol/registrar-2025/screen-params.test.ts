import { describe, expect, it } from "vitest";
import { screenParams } from "../../../../src/protocol/registrar-2025/screen-params.js";
import { QUARANTINED_PROGRESS_TOKEN } from "../../../../src/transports/progress-token.js";

const screen = (method: string, params: unknown, maxDepth = 4) => screenParams(7, method, params, maxDepth);
const problem = (message: string) => ({
  jsonrpc: "2.0",
  id: 7,
  error: { code: -32602, message: `Invalid params: ${message}` },
});

describe("screenParams", () => {
  it("lets well-formed params through, and requests without params", () => {
    expect(screen("tools/call", undefined)).toBeUndefined();
    expect(
      screen("tools/call", { name: "t", arguments: { a: 1 }, _meta: { progressToken: "p1" } }),
    ).toBeUndefined();
    expect(screen("tools/call", { name: "t", _meta: { progressToken: 5 } })).toBeUndefined();
    expect(screen("resources/read", { uri: "x://y", arguments: "not checked here" })).toBeUndefined();
  });

  it("answers params or _meta that are not objects with -32602 naming the kind", () => {
    expect(screen("tools/list", [])).toEqual(problem("`params` must be an object, not an array"));
    expect(screen("tools/list", "x")).toEqual(problem("`params` must be an object, not a string"));
    expect(screen("tools/list", { _meta: null })).toEqual(problem("`_meta` must be an object, not null"));
    expect(screen("tools/list", { _meta: { a: { b: { c: { d: { e: 1 } } } } } })).toEqual(
      problem("`_meta` is nested deeper than 4 levels"),
    );
  });

  it("answers a progress token that is neither a string nor an integer, quarantined or not", () => {
    const message = (shown: string) =>
      problem(
        `\`_meta.progressToken\` must be a string or an integer, not ${shown}; send another token or leave it out`,
      );
    expect(screen("tools/call", { name: "t", _meta: { progressToken: 1.5 } })).toEqual(message("1.5"));
    expect(screen("tools/call", { name: "t", _meta: { progressToken: { x: 1 } } })).toEqual(
      message("an object"),
    );
    expect(screen("tools/call", { name: "t", _meta: { [QUARANTINED_PROGRESS_TOKEN]: true } })).toEqual(
      message("a boolean"),
    );
  });

  it("refuses __proto__ in arguments: a tool answers isError, a prompt -32602", () => {
    const toolArgs = JSON.parse('{"name":"search","arguments":{"__proto__":{"admin":true}}}');
    expect(screen("tools/call", toolArgs)).toEqual({
      jsonrpc: "2.0",
      id: 7,
      result: {
        isError: true,
        content: [
          {
            type: "text",
            text: expect.stringContaining(
              'Invalid arguments for tool "search": the key `__proto__` is not allowed',
            ),
          },
        ],
      },
    });
    const promptArgs = JSON.parse('{"name":"review","arguments":{"__proto__":"x"}}');
    expect(screen("prompts/get", promptArgs)).toEqual(
      problem('arguments of prompt "review": the key `__proto__` is not allowed; remove it'),
    );
    expect(screen("tools/call", { name: "t", arguments: [1] })).toEqual(
      problem("`arguments` must be an object, not an array"),
    );
  });
});
