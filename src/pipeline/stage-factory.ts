import type { InjectionToken } from "tsyringe";
import type { OperationDefinition } from "../builder/definitions.js";
import type { SingleFlight } from "../cache/single-flight.js";
import type { EphemeralResources } from "../ephemeral/ephemeral-resources.js";
import type { Logger } from "../logging/logger.js";
import type { AppMetrics } from "../metrics/app-metrics.js";
import type { CursorCodec } from "../pagination/cursor-codec.js";
import type { Stage } from "./invocation.js";
import type { StageName } from "./order.js";

/** Limits on what a client may send, checked before validation. */
export interface InputLimits {
  /** Largest total size of the arguments, in UTF-8 bytes (default 1 MiB). */
  maxBytes: number;
  /** Most values (array elements, object fields, scalars) in the arguments (default 10,000). */
  maxElements: number;
  /** Deepest nesting of arrays and objects (default 32). */
  maxDepth: number;
}

/** What a stage factory may use while building a stage for one operation. */
export interface PipelineEnvironment {
  resolve<T>(token: InjectionToken<T>): T;
  readonly logger: Logger;
  readonly inputLimits: InputLimits;
  /** Signs and checks pagination cursors with the app's keys. */
  readonly cursors: CursorCodec;
  /** The app's counters (`app.stats()`). */
  readonly metrics: AppMetrics;
  /** Running cache misses, shared by every cached operation of the app. */
  readonly flights: SingleFlight;
  /** The app-wide default budget (`budget` option), if any. */
  readonly appBudget: number | undefined;
  /** Ephemeral resources of the app (storage, quotas, visibility). */
  readonly ephemeral: EphemeralResources;
  /** Names of the built-in resource tools, as summaries mention them. */
  readonly ephemeralTools: { readonly read: string; readonly search: string };
}

/**
 * Builds the stage of one capability for one operation, or returns `undefined` when the
 * operation does not use the capability. Each capability contributes one factory.
 */
export interface StageFactory {
  readonly name: StageName;
  create(definition: OperationDefinition, env: PipelineEnvironment): Stage | undefined;
}
