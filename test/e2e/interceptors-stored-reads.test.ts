import {
  Ephemeral,
  FrugalConfigError,
  Inject,
  Injectable,
  type InterceptedCall,
  type Interceptor,
  McpModule,
  McpService,
  type ProtocolResult,
  Tool,
  UseInterceptors,
} from "frugal-mcp";
import { createTestClient, type TestClient } from "frugal-mcp/testing";
import { afterEach, describe, expect, it } from "vitest";

/** Refuses reads of stored results while `locked`; records what it saw. */
@Injectable()
class Lock implements Interceptor {
  static locked = false;
  readonly seen: InterceptedCall[] = [];
  closed = false;
  intercept(call: InterceptedCall, next: () => Promise<ProtocolResult>) {
    this.seen.push(call);
    if (Lock.locked && call.kind === "resource") throw new Error("reads are locked");
    return next();
  }
  async close() {
    this.closed = true;
  }
}

@Injectable()
class Counter implements Interceptor {
  count = 0;
  intercept(_call: InterceptedCall, next: () => Promise<ProtocolResult>) {
    this.count++;
    return next();
  }
}

@McpService()
class ReportsService {
  constructor(@Inject(Counter) readonly counter: Counter) {}

  @Tool()
  @UseInterceptors(Counter)
  @Ephemeral({ when: "always" })
  report() {
    return [{ row: 1 }, { row: 2 }];
  }
}

@McpModule({ services: [ReportsService] })
class ReportsModule {}

describe("app-wide interceptors guard stored resources read with resources/read", () => {
  let t: TestClient | undefined;
  afterEach(async () => {
    Lock.locked = false;
    await t?.close();
    t = undefined;
  });

  it("runs around resources/read of an ephemeral resource, and can refuse it", async () => {
    t = await createTestClient(ReportsModule, { interceptors: [Lock] });
    const made = await t.callTool({ name: "report", arguments: {} });
    const uri = (made.structuredContent as { spilled: { uri: string } }).spilled.uri;
    const read = await t.readResource({ uri });
    expect(read.contents[0]).toMatchObject({ uri, mimeType: "application/json" });
    const lock = t.app.get(Lock);
    expect(lock.seen.at(-1)).toMatchObject({ kind: "resource", uri, name: uri, method: "read" });
    Lock.locked = true;
    await expect(t.readResource({ uri })).rejects.toThrow("reads are locked");
  });

  it("builds each interceptor once per app, shares it with injection, and closes it with the app", async () => {
    t = await createTestClient(ReportsModule, { interceptors: [Lock] });
    await t.callTool({ name: "report", arguments: {} });
    await t.callTool({ name: "report", arguments: {} });
    const service = t.app.get(ReportsService);
    expect(service.counter).toBe(t.app.get(Counter));
    expect(service.counter.count).toBe(2);
    const lock = t.app.get(Lock);
    await t.close();
    t = undefined;
    expect(lock.closed).toBe(true);
  });

  it("refuses an `interceptors` option that is not an array", async () => {
    const failure = createTestClient(ReportsModule, { interceptors: Lock as never });
    await expect(failure).rejects.toBeInstanceOf(FrugalConfigError);
    await expect(failure).rejects.toThrow(
      "McpFactory.create options: `interceptors` takes an array of interceptor classes, not a function (Lock). Fix: e.g. interceptors: [AuditLog].",
    );
  });
});
