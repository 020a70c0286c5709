import type { Invocation, Stage } from "./invocation.js";

/**
 * Folds stages (outermost first) around the handler call into one function. Built once
 * per operation at start-up; a call allocates one closure per stage, nothing more.
 */
export function compose(stages: readonly Stage[], core: (invocation: Invocation) => Promise<unknown>) {
  return stages.reduceRight<(invocation: Invocation) => Promise<unknown>>(
    (inner, stage) => (invocation) => stage(invocation, () => inner(invocation)),
    core,
  );
}
