import type { McpModuleOptions, ProviderEntry } from "../decorators/mcp-module.decorator.js";
import { FrugalConfigError } from "../errors/config-error.js";
import { metadataStore } from "../metadata/store.js";

type Constructor = new (...args: any[]) => unknown;

/** The flattened content of a module and everything it imports. */
export interface ModuleGraph {
  /** Services in import order (imported modules first), each once. */
  readonly services: Constructor[];
  /** Providers in override order: later entries win for the same token. */
  readonly providers: ProviderEntry[];
}

/**
 * Flattens `imports` depth-first, so an importing module's providers come after (and
 * override) those of the modules it imports. A module imported twice counts once; an
 * import cycle is harmless.
 */
export function collectModuleGraph(root: Function): ModuleGraph {
  const services: Constructor[] = [];
  const providers: ProviderEntry[] = [];
  const visited = new Set<Function>();
  const visit = (module: Function, importedBy: string | undefined) => {
    if (visited.has(module)) return;
    visited.add(module);
    const options = metadataStore.module<Required<McpModuleOptions>>(module);
    if (!options) {
      const where = importedBy
        ? `${importedBy} imports ${module?.name ?? String(module)}`
        : String(module?.name ?? module);
      throw new FrugalConfigError(
        where,
        "this class is not decorated with @McpModule",
        "add @McpModule({ services, providers, imports }) to it",
      );
    }
    for (const imported of options.imports) visit(imported, module.name);
    for (const service of options.services) if (!services.includes(service)) services.push(service);
    providers.push(...options.providers);
  };
  visit(root, undefined);
  return { services, providers };
}
