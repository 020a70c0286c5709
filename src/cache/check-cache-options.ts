import { describe, listOf, OptionChecker } from "../builder/check-options.js";
import { isObject } from "../common/guards.js";
import type { CapabilityTarget } from "../pipeline/capability.js";
import type { CachedOptions, CacheSpec, InvalidationRule } from "./cache-spec.js";

// Every option key (the `Record` makes the compiler flag a key added to the type but not here).
const CACHED_OPTIONS = Object.keys({ ttl: true, invalidateOn: true, scope: true } satisfies Record<
  keyof CachedOptions,
  true
>);

/** `@Cached`'s options checked, with its scope decided (tools: owner, resources and prompts: global). */
export function checkCacheOptions(options: unknown, target: CapabilityTarget): CacheSpec {
  const { where, kind } = target;
  const check: OptionChecker = new OptionChecker(where, "@Cached");
  // `@Cached()` records undefined options: the decorator being there is what counts, so this refuses it.
  const known = check.knownKeys(options, CACHED_OPTIONS);
  const ttl = check.positiveDuration("`ttl`", known.ttl, "@Cached({ ttl: 60_000 })");
  const scope =
    known.scope === undefined
      ? kind === "tool"
        ? "owner"
        : "global"
      : check.oneOf("`scope`", known.scope, ["owner", "global"] as const);
  const invalidateOn = known.invalidateOn === undefined ? [] : known.invalidateOn;
  if (!Array.isArray(invalidateOn)) {
    check.fail(
      `\`invalidateOn\` must be an array, not ${describe(invalidateOn)}`,
      'e.g. invalidateOn: ["articles.changed"]',
    );
  }
  for (const [index, rule] of invalidateOn.entries()) checkRule(check, rule, index);
  // @Ephemeral on anything but a tool fails with its own message when it is resolved.
  if (kind === "tool" && target.carries("@Ephemeral")) refuseCachedSpill(check);
  return Object.freeze({ ttl, scope, invalidateOn: Object.freeze([...invalidateOn]) });
}

/**
 * A stored result is answered with a link to a resource that expires, and such answers are
 * never cached: `@Cached` would silently miss on every large result (and on every result with
 * `when: "always"`), so the pair is refused rather than left to look like a cache.
 */
function refuseCachedSpill(check: OptionChecker): never {
  return check.fail(
    "cannot be combined with @Ephemeral: a result @Ephemeral stores is answered with a link to a resource that expires, and such answers are never cached, so the handler would run again on every call",
    "remove @Cached (the stored resource is already read again through its link, with read_resource and search_resource), or remove @Ephemeral to cache results that fit the budget (@Paginated pages a large one)",
  );
}

function checkRule(check: OptionChecker, rule: unknown, index: number): asserts rule is InvalidationRule {
  const entry = `\`invalidateOn[${index}]\``;
  const fix = 'use an event name, or { event: "articles.changed", match: (input, payload) => … }';
  if (typeof rule === "string") {
    if (rule === "") check.fail(`${entry} is an empty event name`, fix);
    return;
  }
  if (!isObject(rule) || Array.isArray(rule)) {
    check.fail(`${entry} must be an event name or { event, match }, not ${describe(rule)}`, fix);
  }
  const { event, match, ...rest } = rule;
  const unknown = Object.keys(rest).map((key) => `\`${key}\``);
  if (unknown.length > 0) {
    check.fail(
      `${entry} has ${unknown.length > 1 ? `unknown keys ${listOf(unknown, "and")}` : `an unknown key ${unknown[0]}`}`,
      "give it only `event` and `match`",
    );
  }
  if (typeof event !== "string" || event === "") {
    check.fail(
      `\`invalidateOn[${index}].event\` must be a non-empty event name, not ${describe(event)}`,
      fix,
    );
  }
  if (match === undefined) {
    check.fail(
      `${entry} has an \`event\` but no \`match\``,
      `add match: (input, payload) => …, or pass the event name alone (${JSON.stringify(event)})`,
    );
  }
  if (typeof match !== "function") {
    check.fail(`\`invalidateOn[${index}].match\` must be a function, not ${describe(match)}`, fix);
  }
}
