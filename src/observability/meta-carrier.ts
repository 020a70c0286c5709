import type { TextMapGetter } from "@opentelemetry/api";

/** A request's `params._meta`, as the SDK hands it over. */
type MetaCarrier = Record<string, unknown>;

/**
 * Reads trace context (`traceparent`, `tracestate`, `baggage`, or whatever keys the
 * registered propagator uses) from a request's `params._meta`, where the MCP conventions
 * carry it. Only string values are handed to the propagator: `_meta` is client input.
 *
 * @example
 * ```ts
 * const parent = propagation.extract(context.active(), request.params._meta, META_GETTER);
 * ```
 */
export const META_GETTER: TextMapGetter<MetaCarrier> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const value = carrier[key];
    return typeof value === "string" ? value : undefined;
  },
};
