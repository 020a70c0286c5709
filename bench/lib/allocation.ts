import { Session } from "node:inspector/promises";
import type { Contender } from "./measure.js";

/**
 * Bytes each contender allocates per operation, garbage included: V8's sampling heap
 * profiler, told to keep the samples of objects the GC has already collected, sums what
 * `calls` sequential operations allocate. A count rather than a time, so it does not swing
 * with the machine's speed as µs do: the same build reads the same within about 1 %. On
 * a trivial call, allocation is what the time goes to (GC is about a third of it).
 */
export async function bytesPerOperation(
  contenders: readonly Contender[],
  calls = 20_000,
): Promise<Record<string, number>> {
  const session = new Session();
  session.connect();
  const bytes: Record<string, number> = {};
  try {
    for (const contender of contenders) {
      await session.post("HeapProfiler.startSampling", {
        samplingInterval: 64,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true,
      });
      for (let i = 0; i < calls; i++) await contender.once();
      const { profile } = await session.post("HeapProfiler.stopSampling");
      bytes[contender.name] = Math.round(totalSize(profile.head) / calls);
    }
  } finally {
    session.disconnect();
  }
  return bytes;
}

interface SampledNode {
  selfSize: number;
  children: SampledNode[];
}

function totalSize(node: SampledNode): number {
  let total = node.selfSize;
  for (const child of node.children) total += totalSize(child);
  return total;
}
