import { describe, OptionChecker } from "../builder/check-options.js";
import type { CapabilityTarget } from "../pipeline/capability.js";
import type { EphemeralOptions, SpillSpec } from "./spill-spec.js";

// Every option key (the `Record` makes the compiler flag a key added to the type but not here).
const EPHEMERAL_OPTIONS = Object.keys({
  when: true,
  ttl: true,
  mimeType: true,
  name: true,
  description: true,
  scope: true,
  preview: true,
} satisfies Record<keyof EphemeralOptions, true>);

/** Default size of a stored result's summary with its preview, in tokens. */
const DEFAULT_PREVIEW_TOKENS = 200;

/** `@Ephemeral`'s options checked, with defaults (the stored resource is named after the tool). */
export function checkEphemeralOptions(options: unknown, target: CapabilityTarget): SpillSpec {
  const check: OptionChecker = new OptionChecker(target.where, "@Ephemeral");
  const known = check.knownKeys(options, EPHEMERAL_OPTIONS);
  const preview =
    known.preview === undefined || known.preview === true
      ? DEFAULT_PREVIEW_TOKENS
      : known.preview === false
        ? 0
        : typeof known.preview === "number"
          ? check.positiveInteger("`preview`", known.preview, "preview: 120")
          : check.fail(
              `\`preview\` must be true, false or a number of tokens, not ${describe(known.preview)}`,
              "use preview: false to leave the preview out, a number of tokens to size it, or drop the option for 200",
            );
  return Object.freeze({
    when:
      known.when === undefined
        ? "overBudget"
        : check.oneOf("`when`", known.when, ["overBudget", "always"] as const),
    ttl:
      known.ttl === undefined
        ? undefined
        : check.positiveDuration("`ttl`", known.ttl, "@Ephemeral({ ttl: 3_600_000 })"),
    mimeType: check.optionalString("`mimeType`", known.mimeType),
    name: check.optionalString("`name`", known.name) ?? target.name,
    description: check.optionalString("`description`", known.description),
    scope:
      known.scope === undefined ? "owner" : check.oneOf("`scope`", known.scope, ["owner", "global"] as const),
    preview,
  });
}
