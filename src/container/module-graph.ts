import type { InjectionToken } from "tsyringe";
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
  /** The module that lists each service class and (winning) provider token, for start-up errors. */
  readonly listedBy: ReadonlyMap<unknown, Function>;
}

/**
 * Flattens `imports` depth-first, so an importing module's providers come after (and
 * override) those of the modules it imports. A module imported twice counts once; an
 * import cycle is harmless. Two modules that provide one token differently, neither
 * importing the other, are refused: nothing says which should win (unless a module
 * importing both provides the token too, which then wins).
 */
export function collectModuleGraph(root: Function): ModuleGraph {
  const services: Constructor[] = [];
  const listed: Array<{ entry: ProviderEntry; module: Function }> = [];
  const imports = new Map<Function, readonly Function[]>();
  const listedBy = new Map<unknown, Function>();
  const visit = (module: Function, importedBy: string | undefined) => {
    if (imports.has(module)) return;
    if (typeof module !== "function") {
      // Most often a circular ES import: the importing file ran before the module's class existed.
      throw new FrugalConfigError(
        `${importedBy ?? "the root module"} imports ${String(module)}`,
        "an imported module is not a class (a circular import between module files evaluates one of them too early)",
        "break the import cycle between the module files, or import the module class from the file that defines it",
      );
    }
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
    imports.set(module, options.imports);
    for (const imported of options.imports) visit(imported, module.name);
    for (const service of options.services) {
      if (services.includes(service)) continue;
      services.push(service);
      listedBy.set(service, module);
    }
    for (const entry of options.providers) listed.push({ entry, module });
  };
  visit(root, undefined);

  const byToken = new Map<InjectionToken, Array<{ entry: ProviderEntry; module: Function }>>();
  for (const item of listed) {
    const token = tokenOf(item.entry);
    byToken.set(token, [...(byToken.get(token) ?? []), item]);
  }
  for (const [token, items] of byToken) {
    // The last one wins; it must be the same provider, or come from a module importing the others.
    const winner = items.at(-1) as { entry: ProviderEntry; module: Function };
    const above = reachableFrom(winner.module, imports);
    for (const other of items) {
      if (other.module === winner.module || above.has(other.module)) continue;
      if (sameProvider(other.entry, winner.entry)) continue;
      throw new FrugalConfigError(
        `${other.module.name} and ${winner.module.name}`,
        `both provide ${describeToken(token)}, and neither imports the other, so neither overrides the other`,
        `provide ${describeToken(token)} in only one of them, or also in a module that imports both, such as ${root.name} (an importer's provider wins)`,
      );
    }
    listedBy.set(token, winner.module);
  }
  return { services, providers: listed.map((item) => item.entry), listedBy };
}

/** Every module `module` imports, directly or not. */
function reachableFrom(module: Function, imports: ReadonlyMap<Function, readonly Function[]>): Set<Function> {
  const seen = new Set<Function>();
  const pending = [...(imports.get(module) ?? [])];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (seen.has(next)) continue;
    seen.add(next);
    pending.push(...(imports.get(next) ?? []));
  }
  return seen;
}

/** One class listed by two modules (`providers: [Repo]` in both) is one provider, not a conflict. */
function sameProvider(a: ProviderEntry, b: ProviderEntry): boolean {
  const normal = (entry: ProviderEntry) =>
    typeof entry === "function" ? { provide: entry, useClass: entry } : (entry as Record<string, unknown>);
  const x = normal(a);
  const y = normal(b);
  const keys = Object.keys(x);
  return keys.length === Object.keys(y).length && keys.every((key) => x[key] === y[key]);
}

/** The token a provider entry registers (a bare class is its own token). */
export function tokenOf(entry: ProviderEntry): InjectionToken {
  return typeof entry === "function" ? entry : entry.provide;
}

/** A token as messages name it: a class by name, a string quoted, a symbol as `Symbol(name)`. */
export function describeToken(token: InjectionToken): string {
  if (typeof token === "function") return token.name;
  if (typeof token === "string") return JSON.stringify(token);
  return String(token);
}
