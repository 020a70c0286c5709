/**
 * Compile-time checks of `@Tool` handlers against their `input` (run by `npm run test:types`,
 * and by `npm run typecheck`). Every `@ts-expect-error` is a negative case: the compiler
 * fails the file if the line below it compiles.
 */
import {
  Budget,
  Cached,
  Ephemeral,
  McpService,
  Paginated,
  Project,
  Tool,
  type ToolContext,
  type ToolOptions,
  UseInterceptors,
} from "frugal-mcp";
import { z } from "zod";

const shape = { site: z.string(), tag: z.string().optional(), limit: z.number().int().default(20) };

@McpService()
export class AcceptedTools {
  @Tool({ input: shape })
  everything({ site, tag, limit }: { site: string; tag?: string; limit: number }) {
    return { site, tag, limit };
  }

  // Fewer properties than the schema, or none: a handler may ignore inputs.
  @Tool({ input: shape })
  someOfThem({ site }: { site: string }) {
    return site;
  }

  @Tool({ description: "List notes", input: { tag: z.string().optional() } })
  noParameters() {
    return [];
  }

  // Extra optional properties (`cursor` under @Paginated, say) are fine.
  @Tool({ input: { site: z.string() } })
  extraOptional({ site, cursor }: { site: string; cursor?: string }) {
    return [site, cursor];
  }

  // The output type: defaults applied, coercions and transforms done.
  @Tool({
    input: {
      n: z.coerce.number(),
      words: z.string().transform((s) => s.split(" ")),
      mode: z.enum(["a", "b"]).default("a"),
    },
  })
  outputTypes({ n, words, mode }: { n: number; words: string[]; mode: "a" | "b" }) {
    return { n, words, mode };
  }

  // A wider parameter type than the schema's output is fine.
  @Tool({ input: { mode: z.enum(["a", "b"]) } })
  wider({ mode }: { mode: string }) {
    return mode;
  }

  @Tool({ input: z.object({ site: z.string() }) })
  zodObject({ site }: { site: string }) {
    return site;
  }

  @Tool({ input: z.strictObject({ site: z.string() }) })
  strictObject({ site }: { site: string }) {
    return site;
  }

  @Tool({ input: z.looseObject({ site: z.string() }) })
  looseObject({ site }: { site: string }) {
    return site;
  }

  // The context: optional, required or left out; sync or async; any return type.
  @Tool({ input: { site: z.string() } })
  async withContext({ site }: { site: string }, ctx: ToolContext) {
    await ctx.log.info(site);
  }

  @Tool({ input: { site: z.string() } })
  optionalContext({ site }: { site: string }, ctx?: ToolContext) {
    return ctx ? site : null;
  }

  @Tool({ input: { site: z.string() } })
  async *generator({ site }: { site: string }) {
    yield site;
  }

  @Tool()
  withoutInput() {
    return 1;
  }

  @Tool()
  ignoresInput(_input: unknown, ctx: ToolContext) {
    return ctx.sessionId;
  }

  @Tool()
  rawArguments(args: Record<string, unknown>) {
    return Object.keys(args);
  }

  // Options only known as `ToolOptions` check nothing.
  @Tool(wideOptions())
  unknownSchema({ anything }: { anything: number }) {
    return anything;
  }
}

function wideOptions(): ToolOptions {
  return { input: { anything: z.number() } };
}

// Stacking in any order, with every behaviour decorator.
@McpService()
export class StackedTools {
  @Tool({ input: { site: z.string() } })
  @Paginated(["updatedAt", "slug"], { limit: 20, fields: ["slug"] })
  @Cached({ ttl: 1000 })
  @Budget(2000)
  toolFirst({ site }: { site: string }, ctx: ToolContext) {
    return [site, ctx.page?.limit];
  }

  @Paginated("id")
  @Budget(2000)
  @Tool({ input: { site: z.string() } })
  @UseInterceptors()
  toolLast({ site, cursor, limit }: { site: string; cursor?: string; limit?: number }) {
    return [site, cursor, limit];
  }

  @Ephemeral()
  @Tool({ input: { id: z.string() } })
  @Project(["id", "title"])
  projected({ id, fields }: { id: string; fields?: string[] }) {
    return { id, fields };
  }
}

// Subclassing: abstract bases, inherited and overridden handlers.
abstract class BaseLogService {
  protected abstract lines(): string[];

  @Tool({ input: { term: z.string() } })
  searchLogs({ term }: { term: string }) {
    return this.lines().filter((l) => l.includes(term));
  }

  @Tool({ input: { n: z.number() } })
  head({ n }: { n: number }) {
    return this.lines().slice(0, n);
  }
}

@McpService()
export class AppLogService extends BaseLogService {
  protected lines() {
    return ["a", "b"];
  }

  // An override without decorators keeps the parent's metadata.
  override head({ n }: { n: number }) {
    return this.lines().slice(-n);
  }

  // Re-decorating an override replaces it.
  @Tool({ input: { term: z.string(), caseSensitive: z.boolean().default(false) } })
  override searchLogs({ term }: { term: string }) {
    return super.searchLogs({ term });
  }
}

@McpService()
export class RejectedTools {
  // A property of the wrong type.
  // @ts-expect-error string is not assignable to number
  @Tool({ input: { site: z.string() } })
  wrongType({ site }: { site: number }) {
    return site;
  }

  // A required property the schema lacks.
  // @ts-expect-error property "tag" is missing in the schema's output
  @Tool({ input: { site: z.string() } })
  missing({ site, tag }: { site: string; tag: string }) {
    return [site, tag];
  }

  // Optional in the schema, required by the handler.
  // @ts-expect-error string | undefined is not assignable to string
  @Tool({ input: { tag: z.string().optional() } })
  requiredButOptional({ tag }: { tag: string }) {
    return tag;
  }

  // The handler gets the output type: a coerced number is no string.
  // @ts-expect-error number is not assignable to string
  @Tool({ input: { n: z.coerce.number() } })
  inputTypeNotOutputType({ n }: { n: string }) {
    return n;
  }

  // A narrower type than the schema's output.
  // @ts-expect-error "a" | "b" is not assignable to "a"
  @Tool({ input: z.object({ mode: z.enum(["a", "b"]) }) })
  narrower({ mode }: { mode: "a" }) {
    return mode;
  }

  // Without `input`, the arguments are unchecked: a handler cannot require one.
  // @ts-expect-error property "q" is missing in Record<string, unknown>
  @Tool()
  requiresUndeclared({ q }: { q: string }) {
    return q;
  }

  // The second parameter receives a ToolContext.
  // @ts-expect-error ToolContext is not assignable to string
  @Tool({ input: { site: z.string() } })
  wrongContext({ site }: { site: string }, ctx: string) {
    return [site, ctx];
  }

  // A third required parameter is never passed.
  // @ts-expect-error the handler takes at most (input, ctx)
  @Tool({ input: { site: z.string() } })
  tooManyParameters({ site }: { site: string }, _ctx: ToolContext, extra: string) {
    return [site, extra];
  }

  // Checked in any stacking order.
  @Paginated("id")
  // @ts-expect-error string is not assignable to number
  @Tool({ input: { site: z.string() } })
  stackedWrongType({ site }: { site: number }) {
    return site;
  }

  // Only methods can be handlers (start-up refuses them too).
  // @ts-expect-error a getter is no method
  @Tool()
  get getter() {
    return 1;
  }

  // @ts-expect-error a field is no method
  @Tool() field = () => 1;
}
