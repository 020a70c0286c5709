// `frugal-mcp/register`: a Node module hook that compiles TypeScript with decorator metadata
// (`emitDecoratorMetadata`), which tsx, esbuild and Node's own type stripping never emit, so
// constructor injection by type works in the default dev loop:
//
//   tsx --import frugal-mcp/register src/main.ts          (tsx resolves, SWC compiles)
//   node --import frugal-mcp/register src/main.ts         (Node 20.19+ alone)
//
// It needs SWC (`npm install --save-dev @swc/core`, an optional peer dependency of frugal-mcp).
// The hooks run in Node's loader thread (./register-hooks.ts); registered after tsx's, they
// see each file first and compile the project's own .ts/.mts/.cts files themselves.
import { register } from "node:module";

// Stack traces then point at the TypeScript (the hooks inline a source map in each file).
process.setSourceMapsEnabled(true);
register("./register-hooks.js", import.meta.url);
