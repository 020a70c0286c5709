import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import type { CatalogueOptions } from "../catalogue/catalogue-options.js";
import type { ProviderEntry } from "../decorators/mcp-module.decorator.js";
import type { EphemeralSettings } from "../ephemeral/ephemeral-settings.js";
import type { TextFormat } from "../metadata/definitions.js";
import type { CursorSecret } from "../pagination/cursor-keys.js";
import type { InterceptorRef } from "../pipeline/interceptor.js";
import type { InputLimits } from "../pipeline/stages/measure-input.js";

/**
 * Options of `McpFactory.create`.
 *
 * @example
 * ```ts
 * await McpFactory.create(AppModule, { name: "articles", version: "1.0.0", listPageSize: 50 });
 * ```
 */
export interface McpAppOptions {
  /** Server name reported at initialization. */
  name: string;
  /** Server version reported at initialization. */
  version: string;
  /** Instructions sent to clients at initialization. */
  instructions?: string | undefined;
  /** Default token budget of every model-visible tool and resource (`@Budget` on a class or method wins). */
  budget?: number | undefined;
  /**
   * How tools' text blocks read (`@Tool` and `@Paginated` may say otherwise per tool).
   * `"auto"` (default): uniform items as a table when that costs fewer tokens than their
   * JSON, a page's non-empty envelope fields on their own line; `structuredContent` keeps
   * the full JSON. `"json"`: the text is the result's minified JSON, as the MCP
   * specification suggests for structured content. `"compact"`: as `"auto"`, and a flat
   * object result reads as `key=value` lines when they cost fewer tokens than its JSON.
   */
  text?: TextFormat | undefined;
  /** Ephemeral resources: lifetime, quotas, clean-up, tool names. */
  ephemeral?: EphemeralSettings | undefined;
  /**
   * Bounds of every aggregate scan: `query_resource`, `search_resource({ count: true })`, and
   * the `aggregate` input of paged tools (where `@Paginated({ aggregate })` may set its own).
   * A scan stops after `maxScanItems` items (default 100,000) or `maxScanMs` ms (default
   * 2,000) and answers `partial: true`; at most `maxGroups` groups (default 1,000) are
   * kept, the largest, past which the answer is partial too.
   */
  aggregate?: AggregateSettings | undefined;
  /**
   * The catalogue of a large server: `{ search: true, pinned: [...] }` lists only the pinned
   * tools and a built-in `search_tools`; every tool stays callable by name (see "The catalogue").
   */
  catalogue?: CatalogueOptions | undefined;
  /** Page size of `tools/list`, `resources/list`, `resources/templates/list`, `prompts/list` (default 100). */
  listPageSize?: number | undefined;
  /** Limits on tool, resource and prompt arguments, checked before validation. */
  inputLimits?: Partial<InputLimits> | undefined;
  /**
   * Maps auth info to the principal that owns a call's data (default: `auth.clientId`).
   * When it gives no name (`undefined` or `""`, as for a token without a client id), the
   * owner is a SHA-256 digest of `auth.token` (never the token itself), so two principals
   * never share ephemeral resources or cache entries.
   */
  principalOf?: ((auth: AuthInfo) => string) | undefined;
  /**
   * Interceptors around every call of the app (before class and method ones), in order:
   * injectable classes with `intercept(call, next)`, built by the app's container.
   */
  interceptors?: readonly InterceptorRef[] | undefined;
  /** Providers that override the modules' own (used by `createTestClient`). */
  providers?: ProviderEntry[] | undefined;
  /** How long `app.close()` waits for running calls before ending sessions (default 10 s). */
  drainTimeoutMs?: number | undefined;
  /**
   * Secret(s) that sign pagination cursors: one, or a list for rotation (the first signs,
   * all verify; `{ id, secret }` entries name their key id). Without one, a random key per
   * process is used, so cursors do not survive restarts or work across instances.
   */
  cursorSecret?: CursorSecret | undefined;
  /** How long a cursor stays valid (default 24 hours). */
  cursorTtlMs?: number | undefined;
  /**
   * Encrypt cursors (AES-256 SIV: HMAC-SHA256 and CTR, with a random nonce) so clients cannot
   * read key values; a cursor grows by 12 to 16 characters (default false: signed only).
   */
  encryptCursors?: boolean | undefined;
  /** Longest cursor accepted, in characters (default 1,024). */
  maxCursorLength?: number | undefined;
  /** How long `create` waits for providers that hold connections to become ready (default 500 ms). */
  readyTimeoutMs?: number | undefined;
  /**
   * `"2026-07-28"` serves that MCP revision as well (sessionless requests, `server/discover`,
   * input-required results, cache hints, `subscriptions/listen`) through the SDK v2 packages
   * `@modelcontextprotocol/server` and `@modelcontextprotocol/node` (optional peer
   * dependencies, loaded only then), still answering 2025-11-25 clients. Default: MCP up to
   * 2025-11-25 on `@modelcontextprotocol/sdk` 1.x.
   */
  protocol?: "2026-07-28" | undefined;
}

/** Bounds of aggregate scans (`McpFactory.create(…, { aggregate })`). */
export interface AggregateSettings {
  /** Items one scan reads at most (default 100,000). */
  maxScanItems?: number | undefined;
  /** Milliseconds one scan takes at most (default 2,000). */
  maxScanMs?: number | undefined;
  /** Groups one answer keeps at most, the largest (default 1,000). */
  maxGroups?: number | undefined;
}

export const DEFAULT_INPUT_LIMITS: InputLimits = { maxBytes: 1024 * 1024, maxElements: 10_000, maxDepth: 32 };
