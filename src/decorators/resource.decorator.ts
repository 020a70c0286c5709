import type { InputSchema, ResourceOptions } from "../metadata/definitions.js";
import { metadataStore } from "../metadata/store.js";
import { copyOptions } from "./copy-options.js";
import type { HandlerDecorator, HandlerInput, TemplateVariables } from "./handler-input.js";
import { memberKindOf } from "./member-kind.js";

/**
 * Exposes a method as an MCP resource: a static URI (`config://app`) or an RFC 6570 URI
 * template (`articles://{site}/{slug}`, `logs://app{?since,limit}`) whose variables are
 * passed to the method as its input. Query variables are optional and may come in any order.
 * The compiler checks the method's first parameter: against `input`'s output type when given
 * (as for `@Tool`), else against the template's variables (`"notes://{id}{?rev}"` →
 * `{ id: string; rev?: string }`).
 *
 * @example
 * ```ts
 * @Resource("articles://{site}", { mimeType: "application/json",
 *   complete: { site: (prefix) => sites.filter((s) => s.startsWith(prefix)) } })
 * articles({ site }: { site: string }) { return this.repo.bySite(site); }
 * ```
 */
export function Resource<Uri extends string, S extends InputSchema = never>(
  uriOrTemplate: Uri,
  options: ResourceOptions<S> = {},
): HandlerDecorator<HandlerInput<S, TemplateVariables<Uri>>> {
  const recorded = Object.freeze({ uri: uriOrTemplate, options: copyOptions(options) });
  return (target, property, descriptor) => {
    metadataStore.writeMethod(target, property, memberKindOf(descriptor), { resource: recorded });
  };
}
