import { describe, expect, it } from "vitest";
import { createAppContainer } from "../../../src/container/app-container.js";
import { InMemoryEventBus } from "../../../src/events/in-memory-event-bus.js";
import { preloadTokenizer, startProviders, warnAboutCursorSecret } from "../../../src/runtime/app-startup.js";
import { frameworkProviders } from "../../../src/runtime/framework-providers.js";
import type { TokenCounter } from "../../../src/tokenizer/token-counter.js";
import { recordingLogger } from "../../support/unit-build.js";

const READY = Symbol("ready provider");

describe("app start-up", () => {
  it("builds the session store and waits for the providers that say when they are ready", async () => {
    let ready = false;
    const provider = {
      ready: async () => {
        await Promise.resolve();
        ready = true;
      },
    };
    const container = createAppContainer(
      [...frameworkProviders(), { provide: READY, useValue: provider }],
      [],
    );
    container.resolve(READY);
    await startProviders(container, new InMemoryEventBus(), 500, recordingLogger());
    expect(ready).toBe(true);
    expect(container.instances.some((i) => typeof i === "object" && i !== null && "shared" in i)).toBe(true);
  });

  it("loads the tokenizer without waiting, and logs a failure instead of throwing", async () => {
    const logger = recordingLogger();
    let fail: (error: Error) => void = () => {};
    const counter = {
      load: () =>
        new Promise<void>((_resolve, reject) => {
          fail = reject;
        }),
    } as unknown as TokenCounter;
    preloadTokenizer(counter, logger);
    expect(logger.lines).toEqual([]);
    fail(new Error("no tables"));
    await new Promise((resolve) => setImmediate(resolve));
    expect(logger.lines.map((l) => l.message)).toEqual([
      "loading the tokenizer failed; calls that count tokens will try again",
    ]);
  });

  it("warns about a short cursor secret, and about none only when the app paginates", () => {
    const logger = recordingLogger();
    warnAboutCursorSecret({ weak: true, ephemeral: false }, true, logger);
    warnAboutCursorSecret({ weak: false, ephemeral: true }, false, logger);
    warnAboutCursorSecret({ weak: false, ephemeral: true }, true, logger);
    expect(logger.lines.map((l) => l.message)).toEqual([
      expect.stringContaining("shorter than 16 bytes"),
      expect.stringContaining("no cursorSecret"),
    ]);
  });
});
