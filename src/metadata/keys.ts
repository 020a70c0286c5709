/**
 * Every reflect-metadata key frugal-mcp writes, in one place so that no two features
 * ever collide and a reader can see the whole metadata surface at a glance.
 */
export const METADATA = {
  /** Per-method record of the frugal decorators applied to it (see `MethodMetadata`). */
  method: "frugal:method",
  /** Per-prototype set of the member names decorated on it (fields included). */
  members: "frugal:members",
  /** Per-class record of class decorators (`@McpService`, class-level capabilities such as `@Budget`, …). */
  service: "frugal:service",
  /** `@McpModule` options on a module class. */
  module: "frugal:module",
} as const;
