import { isInterceptorClass } from "../builder/resolve-specs.js";
import { scanService } from "../builder/scan-service.js";
import type { AppContainer } from "../container/app-container.js";
import { metadataStore } from "../metadata/store.js";
import type { Interceptor, InterceptorRef } from "../pipeline/interceptor.js";

/**
 * Builds each interceptor class once per app with the app's container (constructor
 * injection); an instance the user built is used as it is.
 *
 * @example
 * const interceptorOf = interceptorFactory(appContainer);
 * const timing = interceptorOf(TimingInterceptor); // the same instance every time
 */
export function interceptorFactory(appContainer: AppContainer): (type: InterceptorRef) => Interceptor {
  const built = new Map<InterceptorRef, Interceptor>();
  return (type) => {
    if (typeof type !== "function") return type;
    let instance = built.get(type);
    if (!instance) {
      instance = appContainer.resolve(type);
      built.set(type, instance);
    }
    return instance;
  };
}

/**
 * Every interceptor class the app's services (on the class or a member) and its options name,
 * so the container builds them like services; invalid ones are refused later, by name.
 *
 * @example
 * const classes = declaredInterceptors([ArticlesService], options.interceptors ?? []);
 */
export function declaredInterceptors(services: readonly Function[], appWide: readonly unknown[]): Function[] {
  const found = new Set<unknown>(appWide);
  for (const service of services) {
    for (const type of metadataStore.service(service)?.interceptors ?? []) found.add(type);
    for (const member of scanService(service))
      for (const type of member.metadata.interceptors ?? []) found.add(type);
  }
  return [...found].filter(isInterceptorClass);
}
