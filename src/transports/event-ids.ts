/**
 * Event ids of the Redis event store: `<stream id>|<Redis stream entry id>`. The stream id
 * comes first so a resume names its stream; the entry id (`<ms>-<seq>`) orders events.
 */
export function parseEventId(eventId: string): { streamId: string; entryId: string } | undefined {
  const bar = eventId.lastIndexOf("|");
  if (bar <= 0) return undefined;
  const entryId = eventId.slice(bar + 1);
  if (!/^\d{1,20}-\d{1,20}$/.test(entryId)) return undefined;
  return { streamId: eventId.slice(0, bar), entryId };
}

/** Orders two Redis stream entry ids (`<ms>-<seq>`): negative, zero or positive. */
export function compareEntryIds(a: string, b: string): number {
  const [aMs = 0n, aSeq = 0n] = a.split("-").map(BigInt);
  const [bMs = 0n, bSeq = 0n] = b.split("-").map(BigInt);
  if (aMs !== bMs) return aMs < bMs ? -1 : 1;
  if (aSeq !== bSeq) return aSeq < bSeq ? -1 : 1;
  return 0;
}
