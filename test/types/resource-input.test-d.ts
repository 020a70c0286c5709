/**
 * Compile-time checks of `@Resource` handlers against their URI template or `input`
 * (run by `npm run test:types`). Every `@ts-expect-error` is a negative case.
 */
import { Cached, McpService, Paginated, Resource, type ToolContext } from "frugal-mcp";
import { z } from "zod";
import type { TemplateVariables } from "../../src/decorators/handler-input.js";

/** `true` only when `A` and `B` are the same type. */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const same = <A, B>(verdict: Equal<A, B>) => verdict;

// The variables of a template, as the runtime's UriTemplate reads them.
same<TemplateVariables<"config://app">, {}>(true);
same<TemplateVariables<"notes://{id}">, { id: string }>(true);
same<TemplateVariables<"sites://{site}/articles/{slug}">, { site: string; slug: string }>(true);
same<TemplateVariables<"logs://{app}{?since,limit}">, { app: string; since?: string; limit?: string }>(true);
same<TemplateVariables<"files://{+path}{#frag}">, { path: string; frag: string }>(true);
same<
  TemplateVariables<"a://x{/seg*}{.ext}{?q}{&page}">,
  { seg: string; ext: string; q?: string; page?: string }
>(true);
same<TemplateVariables<"a://{x, y:3}{? p , q*}">, { x: string; y: string; p?: string; q?: string }>(true);
same<TemplateVariables<"notes://{id}">, { noteId: string }>(false);
same<TemplateVariables<string>, any>(true);

const scheme = "notes";

@McpService()
export class AcceptedResources {
  @Resource("config://app")
  config() {
    return {};
  }

  @Resource("notes://{id}", { mimeType: "application/json" })
  note({ id }: { id: string }) {
    return id;
  }

  @Resource("sites://{site}/articles/{slug}")
  article({ site, slug }: { site: string; slug: string }, ctx: ToolContext) {
    return [site, slug, ctx.sessionId];
  }

  // Query variables are optional strings; a handler may take some of them, or none.
  @Resource("logs://{app}{?since,limit}")
  logs({ app, since }: { app: string; since?: string }) {
    return [app, since];
  }

  @Resource("logs://{app}/errors{?since}")
  errors() {
    return [];
  }

  @Resource(`${scheme}://{id}/history`)
  history({ id }: { id: string }) {
    return id;
  }

  // With `input`, the handler gets its output type.
  @Resource("logs://{app}/tail{?limit}", {
    input: { app: z.string(), limit: z.coerce.number().int().max(100).default(10) },
  })
  tail({ app, limit }: { app: string; limit: number }) {
    return [app, limit];
  }

  @Paginated("seq")
  @Cached({ ttl: 1000 })
  @Resource("events://{topic}")
  async events({ topic }: { topic: string }, ctx: ToolContext) {
    return [topic, ctx.page?.limit];
  }

  // A template only known as a string checks nothing.
  @Resource(templateFromConfig())
  dynamic({ anything }: { anything: number }) {
    return anything;
  }
}

function templateFromConfig(): string {
  return "dyn://{anything}";
}

@McpService()
export class RejectedResources {
  // A misnamed template variable.
  // @ts-expect-error property "noteId" is missing in { id: string }
  @Resource("notes://{id}")
  misnamed({ noteId }: { noteId: string }) {
    return noteId;
  }

  // A template variable is a string, not a number (give `input` a coercing type for that).
  // @ts-expect-error string is not assignable to number
  @Resource("notes://{id}")
  notAString({ id }: { id: number }) {
    return id;
  }

  // A query variable may be missing from the URI.
  // @ts-expect-error string | undefined is not assignable to string
  @Resource("logs://{app}{?since}")
  queryRequired({ app, since }: { app: string; since: string }) {
    return [app, since];
  }

  // A static URI has no variables.
  // @ts-expect-error property "id" is missing in {}
  @Resource("config://app")
  staticWithVariable({ id }: { id: string }) {
    return id;
  }

  // With `input`, its output type rules: a coerced number is no string.
  // @ts-expect-error number is not assignable to string
  @Resource("logs://{app}{?limit}", { input: { app: z.string(), limit: z.coerce.number().optional() } })
  inputOutputType({ limit }: { limit?: string }) {
    return limit;
  }

  // @ts-expect-error a getter is no method
  @Resource("config://getter")
  get getter() {
    return {};
  }
}
