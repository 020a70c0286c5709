import {
  CLOCK,
  type Clock,
  createTestClient,
  Inject,
  Injectable,
  ManualClock,
  McpFactory,
  McpModule,
  McpService,
  Tool,
} from "frugal-mcp";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { deferred } from "../support/gates.js";

const GREETING = Symbol("GREETING");
let repoInstances = 0;
const closed: string[] = [];

@Injectable()
class GreetingRepo {
  constructor() {
    repoInstances++;
  }
  greeting(name: string) {
    return `hello ${name}`;
  }
}

class ConnectionHolder {
  isReady = false;
  async ready(): Promise<void> {
    this.isReady = true;
  }
  close(): void {
    closed.push("holder");
  }
}

@McpService()
class GreetingService {
  constructor(
    private readonly repo: GreetingRepo,
    @Inject(GREETING) private readonly punctuation: string,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Tool({ input: { name: z.string() } })
  greet({ name }: { name: string }) {
    return `${this.repo.greeting(name)}${this.punctuation}`;
  }

  @Tool()
  now() {
    return { now: this.clock.now() };
  }
}

@McpService()
class SecondService {
  constructor(private readonly repo: GreetingRepo) {}
  @Tool()
  sameRepo() {
    return this.repo.greeting("again");
  }
}

@McpModule({ services: [SecondService], providers: [GreetingRepo, { provide: GREETING, useValue: "?" }] })
class SharedModule {}

@McpModule({
  imports: [SharedModule],
  services: [GreetingService],
  providers: [
    { provide: GREETING, useFactory: () => "!" },
    { provide: "holder", useClass: ConnectionHolder },
  ],
})
class AppModule {}

describe("modules and DI", () => {
  afterEach(() => {
    closed.length = 0;
  });

  it("composes imports, injects constructor dependencies, and lets the importer override providers", async () => {
    repoInstances = 0;
    const t = await createTestClient(AppModule);
    const names = (await t.client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(["same_repo", "greet", "now"]);
    const result = await t.client.callTool({ name: "greet", arguments: { name: "Ada" } });
    expect(result.content).toEqual([{ type: "text", text: "hello Ada!" }]);
    await t.client.callTool({ name: "same_repo", arguments: {} });
    expect(repoInstances).toBe(1);
    await t.close();
  });

  it("overrides providers in tests, including framework tokens like CLOCK", async () => {
    const fake = { greeting: (name: string) => `fake ${name}` };
    const t = await createTestClient(AppModule, {
      providers: [
        { provide: GreetingRepo, useValue: fake },
        { provide: CLOCK, useValue: new ManualClock(42) },
      ],
    });
    expect((await t.client.callTool({ name: "greet", arguments: { name: "Bo" } })).content).toEqual([
      { type: "text", text: "fake Bo!" },
    ]);
    expect((await t.client.callTool({ name: "now", arguments: {} })).structuredContent).toEqual({ now: 42 });
    await t.close();
  });

  it("keeps providers singletons per app, not across apps", async () => {
    repoInstances = 0;
    const a = await McpFactory.create(AppModule, { name: "a", version: "1" });
    const b = await McpFactory.create(AppModule, { name: "b", version: "1" });
    expect(a.get(GreetingRepo)).toBe(a.get(GreetingRepo));
    expect(a.get(GreetingRepo)).not.toBe(b.get(GreetingRepo));
    expect(repoInstances).toBe(2);
    await a.close();
    await b.close();
  });

  it("waits for ready() at start-up and calls close() on app.close()", async () => {
    const app = await McpFactory.create(AppModule, { name: "a", version: "1" });
    expect(app.get<ConnectionHolder>("holder").isReady).toBe(true);
    await app.close();
    await app.close();
    expect(closed).toEqual(["holder"]);
  });

  it("drains a running call before closing", async () => {
    const started = deferred();
    const release = deferred();
    @McpService()
    class SlowService {
      @Tool()
      async slow() {
        started.resolve();
        await release.promise;
        return "finished";
      }
    }
    @McpModule({ services: [SlowService] })
    class SlowModule {}
    const t = await createTestClient(SlowModule);
    const call = t.client.callTool({ name: "slow", arguments: {} });
    await started.promise;
    expect(t.app.stats().inFlight).toBe(1);
    // close() takes the running calls as it is called; the call only finishes after that.
    const closing = t.app.close();
    release.resolve();
    await closing;
    expect((await call).content).toEqual([{ type: "text", text: "finished" }]);
    await t.close();
  });
});

describe("createTestClient", () => {
  it("is itself a connected SDK client whose close() also closes the app", async () => {
    const client = await createTestClient(AppModule);
    const result = await client.callTool({ name: "greet", arguments: { name: "Cy" } });
    expect(result.content).toEqual([{ type: "text", text: "hello Cy!" }]);
    expect(client.client).toBe(client);
    await client.close();
    expect(client.app.stats().sessions).toBe(0);
    await expect(
      client.app.connect(new (await import("@modelcontextprotocol/sdk/inMemory.js")).InMemoryTransport()),
    ).rejects.toThrow(/closed/);
  });
});
