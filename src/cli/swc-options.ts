/** The part of `@swc/core` the module hook uses (SWC is an optional peer: no types at build time). */
export interface Swc {
  transform(source: string, options: Record<string, unknown>): Promise<{ code: string }>;
}

/**
 * SWC options that compile as `tsc` does with `experimentalDecorators` and
 * `emitDecoratorMetadata` (target ES2022, class fields with define semantics, as tsc's
 * default for that target): legacy decorators, `design:paramtypes` for constructor injection,
 * class names kept (messages print them), an inline source map.
 *
 * @example
 * ```ts
 * await swc.transform(source, swcOptions("/app/src/main.ts", "module"));
 * ```
 */
export function swcOptions(filename: string, format: "module" | "commonjs"): Record<string, unknown> {
  return {
    filename,
    swcrc: false,
    configFile: false,
    sourceMaps: "inline",
    module: { type: format === "module" ? "es6" : "commonjs" },
    jsc: {
      parser: { syntax: "typescript", decorators: true, tsx: filename.endsWith("x") },
      target: "es2022",
      keepClassNames: true,
      transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: true },
    },
  };
}
