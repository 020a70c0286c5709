// tsyringe's runtime, for the whole package. tsyringe is CommonJS: an ESM `import` of it
// makes Node scan its sources for named exports (cjs-module-lexer, through the 30-odd
// files it re-exports), which took 25–50 ms of start-up; `require` gives the very same
// module (one copy, one global container) without the scan.
import "reflect-metadata"; // first: tsyringe refuses to load without the Reflect polyfill
import { createRequire } from "node:module";
import type * as Tsyringe from "tsyringe";

const tsyringe = createRequire(import.meta.url)("tsyringe") as typeof Tsyringe;

export const { container, inject, injectable } = tsyringe;
