import {
  type DependencyContainer,
  type InjectionToken,
  instanceCachingFactory,
  Lifecycle,
  container as rootContainer,
} from "tsyringe";
import type { ProviderEntry } from "../decorators/mcp-module.decorator.js";
import { FrugalConfigError } from "../errors/config-error.js";

/** The DI side of an app: its own child container and every singleton it built. */
export interface AppContainer {
  readonly container: DependencyContainer;
  /** Every provider and service instance built, in creation order, each once. */
  readonly instances: readonly unknown[];
  resolve<T>(token: InjectionToken<T>): T;
}

/**
 * Registers providers (later entries override earlier ones for the same token) in a
 * child container of its own, then builds every provider and service eagerly, as NestJS
 * does, so a missing dependency fails at start-up rather than on the first call.
 */
export function createAppContainer(
  providers: readonly ProviderEntry[],
  services: readonly Function[],
): AppContainer {
  const container = rootContainer.createChildContainer();
  const byToken = new Map<InjectionToken, ProviderEntry>();
  for (const entry of providers) byToken.set(typeof entry === "function" ? entry : entry.provide, entry);
  for (const [token, entry] of byToken) register(container, token, entry);
  for (const service of services) {
    if (!byToken.has(service as InjectionToken)) {
      container.register(
        service as InjectionToken,
        { useClass: service as new () => unknown },
        { lifecycle: Lifecycle.ContainerScoped },
      );
    }
  }
  const instances: unknown[] = [];
  const seen = new Set<unknown>();
  const resolve = <T>(token: InjectionToken<T>): T => {
    try {
      return container.resolve(token);
    } catch (error) {
      throw new FrugalConfigError(
        `resolving ${describeToken(token)}`,
        (error as Error).message.split("\n")[0] ?? "cannot be built",
        "register the missing dependency in a module's `providers`, and decorate injectable classes with @McpService() or tsyringe's @injectable()",
      );
    }
  };
  for (const token of [...byToken.keys(), ...services]) {
    const instance = resolve(token as InjectionToken);
    if (!seen.has(instance)) {
      seen.add(instance);
      instances.push(instance);
    }
  }
  return { container, instances, resolve };
}

function register(container: DependencyContainer, token: InjectionToken, entry: ProviderEntry): void {
  if (typeof entry === "function") {
    container.register(token, { useClass: entry }, { lifecycle: Lifecycle.ContainerScoped });
  } else if ("useClass" in entry) {
    container.register(token, { useClass: entry.useClass }, { lifecycle: Lifecycle.ContainerScoped });
  } else if ("useValue" in entry) {
    container.register(token, { useValue: entry.useValue });
  } else if ("useFactory" in entry) {
    // tsyringe runs factories on every resolve; caching makes each one a singleton per app.
    container.register(token, { useFactory: instanceCachingFactory(entry.useFactory) });
  } else if ("useToken" in entry) {
    container.register(token, { useToken: entry.useToken });
  } else {
    throw new FrugalConfigError(
      `provider for ${describeToken(token)}`,
      "has none of useClass, useValue, useFactory, useToken",
      "pick one",
    );
  }
}

function describeToken(token: InjectionToken): string {
  if (typeof token === "function") return token.name;
  return String(token);
}
