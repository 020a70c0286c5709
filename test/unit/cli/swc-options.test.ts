import { describe, expect, it } from "vitest";
import { swcOptions } from "../../../src/cli/swc-options.js";

describe("swcOptions", () => {
  it("compiles TypeScript with legacy decorators and their metadata, ignoring any .swcrc", () => {
    const options = swcOptions("/app/src/tasks.service.ts", "module") as {
      swcrc: boolean;
      configFile: boolean;
      module: { type: string };
      jsc: {
        parser: { syntax: string; decorators: boolean; tsx: boolean };
        transform: Record<string, boolean>;
      };
    };
    expect([options.swcrc, options.configFile]).toEqual([false, false]);
    expect(options.module.type).toBe("es6");
    expect(options.jsc.parser).toEqual({ syntax: "typescript", decorators: true, tsx: false });
    expect(options.jsc.transform).toMatchObject({ legacyDecorator: true, decoratorMetadata: true });
  });

  it("writes CommonJS for a CommonJS file, and parses JSX in .tsx only", () => {
    const cjs = swcOptions("/app/src/old.cts", "commonjs") as { module: { type: string } };
    expect(cjs.module.type).toBe("commonjs");
    const tsx = swcOptions("/app/src/view.tsx", "module") as { jsc: { parser: { tsx: boolean } } };
    expect(tsx.jsc.parser.tsx).toBe(true);
  });
});
