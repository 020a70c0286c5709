import type { z } from "zod";
import type { InputSchema } from "../metadata/definitions.js";
import type { ToolContext } from "../pipeline/tool-context.js";

/**
 * What `@Tool`, `@Resource` and `@Prompt` return: a method decorator that only accepts a
 * method whose first parameter can hold `Input`, the validated input the framework passes,
 * and whose second parameter, if any, can hold a {@link ToolContext}.
 *
 * The check is contravariant, as a call is: the schema's output must be assignable to the
 * declared parameter. A handler may declare fewer properties than the schema (or none), or
 * extra optional ones; it may not require a property the schema lacks, nor give a property
 * a type the schema's output does not fit. Methods may return anything, sync or async.
 *
 * @example
 * ```ts
 * @Tool({ input: { site: z.string(), tag: z.string().optional() } })
 * list({ site }: { site: string }) { … }          // compiles: `tag` is ignored
 * @Tool({ input: { site: z.string() } })
 * list({ site }: { site: number }) { … }          // error: string is not assignable to number
 * ```
 *
 * @typeParam Input - The validated input the framework passes as the first argument.
 * @typeParam Handler - The decorated method's own type, inferred where the decorator is applied.
 */
export type HandlerDecorator<Input> = <Handler extends (input: Input, ctx: ToolContext) => unknown>(
  target: object,
  property: string | symbol,
  descriptor: TypedPropertyDescriptor<Handler>,
) => void;

/**
 * The input a handler receives for a decorator's `input` schema `S`: the zod output type
 * (defaults applied, coercions and transforms done) of the object schema, or of the shape
 * made into one. `Absent` when there is no schema (`S` is `never`). A schema whose fields
 * are not known statically (a `Record<string, ZodType>`, a bare `z.ZodObject`) checks
 * nothing (`any`).
 *
 * @example
 * ```ts
 * type I = HandlerInput<{ n: z.ZodDefault<z.ZodNumber>; tag: z.ZodOptional<z.ZodString> }, {}>;
 * // { n: number; tag?: string | undefined }
 * ```
 */
export type HandlerInput<S extends InputSchema, Absent> = [S] extends [never] ? Absent : SchemaOutput<S>;

/**
 * The zod output type of an `input` option, as a handler receives it; `any` when its fields
 * are not known statically.
 */
export type SchemaOutput<S extends InputSchema> = S extends z.ZodObject
  ? string extends keyof S["shape"]
    ? any
    : Received<z.output<S>>
  : S extends Record<string, z.ZodType>
    ? string extends keyof S
      ? any
      : Received<z.output<z.ZodObject<S, z.core.$strict>>>
    : never;

/**
 * A parsed object as it really arrives: zod types an optional field `tag?: string | undefined`,
 * but a parsed object never holds an optional key set to `undefined` (JSON has no
 * `undefined`; a missing key stays missing). Saying so lets a handler declare
 * `{ tag?: string }` under `exactOptionalPropertyTypes`, where the zod type would not fit it.
 */
type Received<T> = 0 extends 1 & T
  ? T
  : string extends keyof T
    ? T // a loose object's index signature: left as zod types it
    : { [K in RequiredKeys<T>]: T[K] } & { [K in OptionalKeys<T>]?: Exclude<T[K], undefined> } extends infer R
      ? { [K in keyof R]: R[K] }
      : never;

type OptionalKeys<T> = { [K in keyof T]-?: {} extends Pick<T, K> ? K : never }[keyof T];
type RequiredKeys<T> = Exclude<keyof T, OptionalKeys<T>>;

/**
 * The variables of a URI template literal, as a handler receives them without an `input`:
 * path variables are strings, query variables (`{?since,limit}`, `{&page}`) optional
 * strings. A static URI has none (`{}`); a template only known as `string` checks nothing.
 *
 * @example
 * ```ts
 * type V = TemplateVariables<"logs://{app}/{+path}{?since,limit}">;
 * // { app: string; path: string; since?: string; limit?: string }
 * ```
 */
export type TemplateVariables<Uri extends string> = string extends Uri
  ? any
  : { [Name in PathVariables<Uri>]: string } & { [Name in QueryVariables<Uri>]?: string } extends infer V
    ? { [Name in keyof V]: V[Name] } // one flat object type, so errors read `{ id: string }`
    : never;

/** The bodies of a template's `{…}` expressions, in no particular order. */
type Expressions<Uri extends string> = Uri extends `${string}{${infer Body}}${infer Rest}`
  ? Body | Expressions<Rest>
  : never;

type PathVariables<Uri extends string> =
  Expressions<Uri> extends infer Body extends string
    ? Body extends `${"?" | "&"}${string}`
      ? never
      : Body extends `${"+" | "#" | "/" | "."}${infer Names}`
        ? VariableNames<Names>
        : VariableNames<Body>
    : never;

type QueryVariables<Uri extends string> =
  Expressions<Uri> extends infer Body extends string
    ? Body extends `${"?" | "&"}${infer Names}`
      ? VariableNames<Names>
      : never
    : never;

/** `a, b*,c:3` → `"a" | "b" | "c"` (explode and prefix modifiers dropped, as the runtime does). */
type VariableNames<List extends string> = List extends `${infer First},${infer Rest}`
  ? VariableName<First> | VariableNames<Rest>
  : VariableName<List>;

type VariableName<Spec extends string> =
  Trim<Spec> extends `${infer Name}*`
    ? Name
    : Trim<Spec> extends `${infer Name}:${string}`
      ? Name
      : Trim<Spec>;

type Trim<Text extends string> = Text extends ` ${infer Rest}`
  ? Trim<Rest>
  : Text extends `${infer Rest} `
    ? Trim<Rest>
    : Text;
