import type { ResourceOptions } from "../metadata/definitions.js";
import { metadataStore } from "../metadata/store.js";
import { copyOptions } from "./copy-options.js";
import { type MethodDecorator, memberKindOf } from "./member-kind.js";

/**
 * Exposes a method as an MCP resource: a static URI (`config://app`) or an RFC 6570 URI
 * template (`articles://{site}/{slug}`, `logs://app{?since,limit}`) whose variables are
 * passed to the method as its input. Query variables are optional and may come in any order.
 *
 * @example
 * ```ts
 * @Resource("articles://{site}", { mimeType: "application/json",
 *   complete: { site: (prefix) => sites.filter((s) => s.startsWith(prefix)) } })
 * articles({ site }: { site: string }) { return this.repo.bySite(site); }
 * ```
 */
export function Resource(uriOrTemplate: string, options: ResourceOptions = {}): MethodDecorator {
  const recorded = Object.freeze({ uri: uriOrTemplate, options: copyOptions(options) });
  return (target, property, descriptor) => {
    metadataStore.writeMethod(target, property, memberKindOf(descriptor), { resource: recorded });
  };
}
