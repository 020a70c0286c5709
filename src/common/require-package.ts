import { createRequire } from "node:module";

/**
 * `require` for the CommonJS packages frugal-mcp loads synchronously (tsyringe at start-up,
 * ioredis when a Redis provider is built), resolved from this module.
 *
 * `import.meta.url` is empty when a user's bundler turns this ES module into CommonJS
 * (esbuild's default output on Node, `esbuild app.js --bundle --platform=node`); `__filename`,
 * the bundle's own path, then stands in. `createRequire(undefined)` would throw at load.
 */
export const requirePackage: NodeJS.Require = createRequire(import.meta.url ?? __filename);
