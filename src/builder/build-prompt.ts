import type { Prompt } from "@modelcontextprotocol/sdk/types.js";
import { FrugalConfigError } from "../errors/config-error.js";
import type { PromptOptions } from "../metadata/definitions.js";
import type { PromptDefinition } from "../pipeline/operation.js";
import {
  assertPlainMethod,
  bindCompletions,
  capabilitiesOf,
  commonFields,
  describeMember,
  type MemberToBuild,
  objectSchemaOf,
} from "./build-context.js";
import { OptionChecker } from "./check-options.js";
import { toSnakeCase } from "./names.js";

/** Builds and checks one `@Prompt`. */
export function buildPrompt(item: MemberToBuild): PromptDefinition {
  const options = item.member.metadata.prompt ?? {};
  const property = assertPlainMethod(item, "@Prompt");
  const where = describeMember(item);
  new OptionChecker(where, "@Prompt").knownKeys(options, PROMPT_OPTIONS);
  const name = options.name ?? toSnakeCase(property);
  // First: a capability that does not apply to prompts fails before anything else is checked.
  const capabilities = capabilitiesOf(item, { kind: "prompt", name, where, property });
  const inputSchema = objectSchemaOf(item, "input", options.input);
  const shape = inputSchema?.shape ?? {};
  const complete = bindCompletions(item, options.complete);
  for (const argument of Object.keys(complete)) {
    if (!(argument in shape)) {
      throw new FrugalConfigError(
        where,
        `\`complete\` names argument "${argument}", which the prompt does not declare`,
        `add "${argument}" to \`input\` or remove its completion`,
      );
    }
  }
  const listing: Prompt = {
    name,
    ...(options.title === undefined ? {} : { title: options.title }),
    ...(options.description === undefined ? {} : { description: options.description }),
    arguments: Object.entries(shape).map(([argument, type]) => ({
      name: argument,
      ...(type.description === undefined ? {} : { description: type.description }),
      required: !type.safeParse(undefined).success,
    })),
  };
  return Object.freeze({
    kind: "prompt",
    ...commonFields(item, {
      kind: "prompt",
      name,
      property,
      where,
      inputSchema,
      capabilities,
      visibleTo: options.visibleTo,
    }),
    name,
    listing,
    complete,
  });
}

/** Every key of `PromptOptions` (the `Record` makes the compiler flag a key added there but not here). */
const PROMPT_OPTIONS = Object.keys({
  name: true,
  title: true,
  description: true,
  input: true,
  complete: true,
  visibleTo: true,
} satisfies Record<keyof PromptOptions, true>);
