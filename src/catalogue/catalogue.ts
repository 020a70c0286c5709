import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { Operation, Registry } from "../builder/registry.js";
import { fieldOf } from "../common/guards.js";
import { FrugalConfigError } from "../errors/config-error.js";
import type { BusEvent, EventBus } from "../events/event-bus.js";
import type { Logger } from "../logging/logger.js";
import type { OperationCaller, VisibleTo } from "../metadata/definitions.js";
import type { OperationDefinition, ToolDefinition } from "../pipeline/operation.js";
import type { CatalogueControl } from "./catalogue-control.js";
import type { CatalogueSettings } from "./catalogue-options.js";
import { closeNames } from "./close-names.js";
import { RevealedTools } from "./revealed-tools.js";
import { ToolSearch } from "./tool-search.js";

/** The bus event that carries `app.catalogue.enable/disable` to every instance. */
const CATALOGUE_EVENT = "frugal-mcp:catalogue";

/** A list whose contents a change touches. */
export type ListKind = "tools" | "prompts" | "resources";

/** The caller of a list or call, made only when a rule needs it. */
type CallerOf = () => OperationCaller;

const LIST_OF = { tool: "tools", prompt: "prompts", resource: "resources" } as const;

/**
 * What a caller may see of an app's tools, resources and prompts: each operation's
 * `visibleTo`, the operations switched off at run time (`app.catalogue.disable`), and, under
 * `catalogue: { search: true }`, which tools `tools/list` shows (the pinned ones,
 * `search_tools`, and those search returned to the caller). Made before the registry (the
 * `search_tools` service and the `CATALOGUE` provider hold it), attached once it is built.
 */
export class Catalogue {
  private registry: Registry | undefined;
  private bus: EventBus | undefined;
  private logger: Logger | undefined;
  private unsubscribe: (() => void) | undefined;
  private readonly disabled = new Set<string>();
  private readonly revealed = new RevealedTools();
  private index: Promise<ToolSearch> | undefined;
  /** Each operation's visibility rules, gathered once. */
  private readonly rules = new WeakMap<OperationDefinition, readonly VisibleTo[]>();
  /** Set by the app: tells sessions and listen streams that these lists changed. */
  onListsChanged: (lists: readonly ListKind[]) => Promise<void> = async () => {};
  /** Set by the app: tells `owner`'s sessions that its tool list grew. */
  onRevealed: (owner: string) => Promise<void> = async () => {};
  /** What `app.catalogue` and the `CATALOGUE` token give. */
  readonly control: CatalogueControl = Object.freeze({
    enable: (name: string) => this.change(name, true),
    disable: (name: string) => this.change(name, false),
    isEnabled: (name: string) => {
      const keys = this.keysNamed(name);
      return keys.length > 0 && keys.every((key) => !this.disabled.has(key));
    },
  });

  constructor(
    readonly settings: CatalogueSettings,
    /** The name of the built-in search tool, listed under `search`. */
    readonly searchToolName = "search_tools",
  ) {}

  /** Takes the built registry (refusing unknown pinned names) and hears changes on the bus. */
  attach(registry: Registry, bus: EventBus, logger: Logger): void {
    for (const name of this.settings.pinned) {
      if (!registry.tools.has(name)) {
        const close = closeNames(name, registry.tools.keys());
        throw new FrugalConfigError(
          "McpFactory.create options",
          `\`catalogue.pinned\` names "${name}", which is no tool of this app`,
          close.length > 0 ? `did you mean ${quoted(close)}?` : "pin the name of one of the app's tools",
        );
      }
    }
    this.registry = registry;
    this.bus = bus;
    this.logger = logger;
    this.unsubscribe = bus.subscribe((event) => this.apply(event));
  }

  /** Stops hearing changes (the app closes). */
  detach(): void {
    this.unsubscribe?.();
  }

  /**
   * Whether `definition` exists for the caller: enabled, and every visibility rule (its
   * `visibleTo`, its capabilities' `visible`) answers true. A rule that throws hides it (and
   * is logged). Synchronous when no rule must be awaited.
   */
  admits(definition: OperationDefinition, callerOf: CallerOf): boolean | Promise<boolean> {
    if (this.disabled.size > 0 && this.disabled.has(keyOf(definition))) return false;
    const rules = this.rulesOf(definition);
    if (rules.length === 0) return true;
    const hidden = (error: unknown) => {
      this.logger?.warn(
        `${definition.where}: a visibility rule threw, so it is hidden from this caller`,
        error,
      );
      return false;
    };
    const caller = callerOf();
    const pending: Array<Promise<boolean>> = [];
    for (const rule of rules) {
      try {
        const verdict = rule(caller);
        if (verdict instanceof Promise) pending.push(verdict.then((v) => v === true, hidden));
        else if (verdict !== true) return false;
      } catch (error) {
        return hidden(error);
      }
    }
    return pending.length === 0 ? true : Promise.all(pending).then((verdicts) => verdicts.every(Boolean));
  }

  /** True when `definition` exists for every caller right now: no rule to ask, not disabled (the hot path of a call). */
  isOpen(definition: OperationDefinition): boolean {
    return this.disabled.size === 0 && this.rulesOf(definition).length === 0;
  }

  /** An operation's visibility rules: its decorator's `visibleTo`, then its capabilities' `visible`. */
  private rulesOf(definition: OperationDefinition): readonly VisibleTo[] {
    let rules = this.rules.get(definition);
    if (!rules) {
      const found: VisibleTo[] = definition.visibleTo ? [definition.visibleTo] : [];
      for (const [capability, spec] of definition.capabilities) {
        const visible = capability.visible;
        if (visible) found.push((caller) => visible.call(capability, spec, caller));
      }
      rules = Object.freeze(found);
      this.rules.set(definition, rules);
    }
    return rules;
  }

  /** The operations the caller may see, in their order. */
  async visible<T extends Operation<OperationDefinition>>(
    operations: Iterable<T>,
    callerOf: CallerOf,
  ): Promise<T[]> {
    const all = [...operations];
    if (this.disabled.size === 0 && !all.some((o) => this.rulesOf(o.definition).length > 0)) return all;
    const caller = once(callerOf);
    const verdicts = await Promise.all(all.map((o) => this.admits(o.definition, caller)));
    return all.filter((_, index) => verdicts[index]);
  }

  /** The tools `tools/list` shows the caller: all it may see, or under `search` the pinned, searched and found ones. */
  async listedTools(callerOf: CallerOf): Promise<Array<Operation<ToolDefinition>>> {
    const tools = [...this.registryOrThrow().tools.values()];
    if (!this.settings.search) return this.visible(tools, callerOf);
    const caller = once(callerOf);
    const { owner } = caller();
    const listed = tools.filter(({ definition: { name } }) => this.isListed(name, owner));
    return this.visible(listed, caller);
  }

  /**
   * The definitions of the tools that match `query` and that the caller may see, best first,
   * at most `limit`; they join the caller's list, and its sessions are told when it grew.
   */
  async search(query: string, limit: number, caller: OperationCaller): Promise<Tool[]> {
    const registry = this.registryOrThrow();
    this.index ??= ToolSearch.build(
      [...registry.tools.values()]
        .map((o) => o.definition)
        .filter((d) => d.name !== this.searchToolName && d.modelVisible),
    ).catch((error: unknown) => {
      // Not kept: the next search builds it again.
      this.index = undefined;
      throw error;
    });
    const found: Tool[] = [];
    for (const name of (await this.index).rank(query)) {
      if (found.length >= limit) break;
      const tool = registry.tools.get(name);
      if (tool && (await this.admits(tool.definition, () => caller))) found.push(tool.definition.listing);
    }
    const grown = this.revealed.add(
      caller.owner,
      found.map((tool) => tool.name).filter((name) => !this.isListed(name, caller.owner)),
    );
    if (grown) await this.onRevealed(caller.owner);
    return found;
  }

  /** Forgets what search revealed to an owner (its session ended). */
  forget(owner: string): void {
    this.revealed.forget(owner);
  }

  private isListed(name: string, owner: string): boolean {
    return (
      name === this.searchToolName || this.settings.pinned.includes(name) || this.revealed.has(owner, name)
    );
  }

  private async change(name: string, enabled: boolean): Promise<void> {
    if (typeof name !== "string" || this.keysNamed(name).length === 0) {
      throw new Error(unknownName(`app.catalogue.${enabled ? "enable" : "disable"}`, name, this.allNames()));
    }
    if (!this.bus) throw new Error("the catalogue is not attached to an app yet");
    // Applied by the bus listener, here and on every other instance the bus reaches.
    await this.bus.emit(CATALOGUE_EVENT, { name, enabled });
  }

  private async apply(event: BusEvent): Promise<void> {
    if (event.name !== CATALOGUE_EVENT) return;
    const [name, enabled] = [fieldOf(event.payload, "name"), fieldOf(event.payload, "enabled")];
    const keys = typeof name === "string" ? this.keysNamed(name) : [];
    if (keys.length === 0 || typeof enabled !== "boolean") {
      // Another instance may run another version of the app: nothing of that name here.
      this.logger?.debug(`catalogue change for ${JSON.stringify(name)} ignored: nothing of that name here`);
      return;
    }
    for (const key of keys) enabled ? this.disabled.delete(key) : this.disabled.add(key);
    const lists = new Set(keys.map((key) => LIST_OF[key.slice(0, key.indexOf(":")) as keyof typeof LIST_OF]));
    await this.onListsChanged([...lists]);
  }

  /** The keys of every operation called `name`: a tool, a prompt, a resource URI or URI template. */
  private keysNamed(name: string): string[] {
    const registry = this.registryOrThrow();
    const keys: string[] = [];
    if (registry.tools.has(name)) keys.push(`tool:${name}`);
    if (registry.prompts.has(name)) keys.push(`prompt:${name}`);
    if (registry.staticResources.has(name)) keys.push(`resource:${name}`);
    for (const template of registry.templates) {
      if (template.definition.uri === name) keys.push(`resource:${name}`);
    }
    return keys;
  }

  private allNames(): string[] {
    const registry = this.registryOrThrow();
    return [
      ...registry.tools.keys(),
      ...registry.prompts.keys(),
      ...registry.staticResources.keys(),
      ...registry.templates.map((t) => t.definition.uri),
    ];
  }

  private registryOrThrow(): Registry {
    if (!this.registry) throw new Error("the catalogue is not attached to an app yet");
    return this.registry;
  }
}

/** The key an operation is switched on and off by. */
function keyOf(definition: OperationDefinition): string {
  return definition.kind === "resource"
    ? `resource:${definition.uri}`
    : `${definition.kind}:${definition.name}`;
}

/** `caller` made at most once. */
function once(callerOf: CallerOf): CallerOf {
  let caller: OperationCaller | undefined;
  return () => {
    caller ??= callerOf();
    return caller;
  };
}

function quoted(names: readonly string[]): string {
  return names.map((n) => `"${n}"`).join(", ");
}

/** The error of a name nothing has: the closest names, or some of those there are. */
export function unknownName(operation: string, name: unknown, known: readonly string[]): string {
  const problem = `${operation}(${JSON.stringify(name)}): no tool, prompt or resource is named ${JSON.stringify(name)}`;
  const close = typeof name === "string" ? closeNames(name, known) : [];
  if (close.length > 0) return `${problem}; did you mean ${quoted(close)}?`;
  const some = known.slice(0, 10);
  return `${problem}; the names are ${quoted(some)}${known.length > some.length ? ", …" : ""}`;
}
