// Public API of frugal-mcp: what users write with. Internals (pipeline stages, the page
// class, the ephemeral-resource manager, content indexes) are not exported; see
// ARCHITECTURE.md. `createTestClient` is also at `frugal-mcp/testing`, `S3Storage` at
// `frugal-mcp/s3`.
import "reflect-metadata";

export type { McpApp2026 } from "./app/app-2026.js";
export type { AggregateSettings, McpAppOptions } from "./app/app-options.js";
export { type AppStats, McpApp } from "./app/mcp-app.js";
export { Budget } from "./budget/budget.capability.js";
export type { BudgetOptions, BudgetSpec } from "./budget/budget-spec.js";
export type { BudgetExceeded } from "./budget/over-budget.js";
export type { CachedOptions, CacheSpec, InvalidationRule } from "./cache/cache-spec.js";
export { Cached } from "./cache/cached.capability.js";
export { LruCache, type LruCacheOptions } from "./cache/lru-cache.js";
export { RedisCache, type RedisCacheOptions } from "./cache/redis-cache.js";
export type { CacheEntry, EntryMatcher, OnceRecords, ResultCache } from "./cache/result-cache.js";
export { CATALOGUE, type CatalogueControl } from "./catalogue/catalogue-control.js";
export type { CatalogueOptions } from "./catalogue/catalogue-options.js";
export { type Clock, ManualClock, SystemClock } from "./clock/clock.js";
export {
  type CapabilityDecorator,
  type CapabilityDefinition,
  defineCapability,
} from "./decorators/define-capability.js";
export type { HandlerDecorator, HandlerInput, TemplateVariables } from "./decorators/handler-input.js";
export {
  type Constructor,
  McpModule,
  type McpModuleOptions,
  type ProviderEntry,
} from "./decorators/mcp-module.decorator.js";
export { McpService } from "./decorators/mcp-service.decorator.js";
export type { MethodDecorator } from "./decorators/member-kind.js";
export { Prompt } from "./decorators/prompt.decorator.js";
export { Resource } from "./decorators/resource.decorator.js";
export { Tool } from "./decorators/tool.decorator.js";
// tsyringe's own decorators, re-exported so users need one import for DI.
export { inject as Inject, injectable as Injectable } from "./decorators/tsyringe.js";
export { UseInterceptors } from "./decorators/use-interceptors.decorator.js";
export { Ephemeral } from "./ephemeral/ephemeral.capability.js";
export type { EphemeralSettings } from "./ephemeral/ephemeral-settings.js";
export { ResourceLimitError, ResourceNotFoundError } from "./ephemeral/resource-errors.js";
export type { EphemeralOptions, SpillSpec } from "./ephemeral/spill-spec.js";
export type { SpilledResult } from "./ephemeral/spill-summary.js";
export { FrugalConfigError } from "./errors/config-error.js";
export {
  invalidParams,
  ProtocolError,
  RESOURCE_NOT_FOUND,
  resourceNotFound,
} from "./errors/protocol-errors.js";
export type { BusEvent, DeliveryChange, EventBus, EventListener } from "./events/event-bus.js";
export { ExternalEventSource } from "./events/external-event-source.js";
export { FileWatchSource, type FileWatchSourceOptions } from "./events/file-watch-source.js";
export { InMemoryEventBus } from "./events/in-memory-event-bus.js";
export {
  type PgListenClient,
  PgNotifySource,
  type PgNotifySourceOptions,
} from "./events/pg-notify-source.js";
export { RedisEventBus, type RedisEventBusOptions } from "./events/redis-event-bus.js";
export { Invalidates } from "./invalidation/invalidates.capability.js";
export { type Logger, StderrLogger } from "./logging/logger.js";
export type {
  AggregateBounds,
  CompleteCallback,
  InputSchema,
  ListedResource,
  McpServiceOptions,
  OperationCaller,
  PageLink,
  PromptOptions,
  ResourceOptions,
  StreamChunkOptions,
  TextFormat,
  ToolOptions,
  ToolVisibility,
  VisibleTo,
} from "./metadata/definitions.js";
export type { CatalogueStats, CatalogueView } from "./metrics/catalogue-views.js";
export type { OperationStats } from "./metrics/operation-stats.js";
export type { PrincipalStats, PrincipalTokensEntry } from "./metrics/principal-tokens.js";
export {
  type ByteChunk,
  type ByteRange,
  type ByteSource,
  ByteSourceChangedError,
  byteChunkInput,
  MAX_BYTE_CHUNK,
  readByteChunk,
} from "./pagination/byte-chunks.js";
export type { CursorSecret } from "./pagination/cursor-keys.js";
export { fileByteSource } from "./pagination/file-byte-source.js";
export {
  HttpBodyCache,
  type HttpBodyCacheOptions,
  sharedHttpBodyCache,
} from "./pagination/http-body-cache.js";
export { type HttpByteSourceOptions, httpByteSource } from "./pagination/http-byte-source.js";
export type {
  AggregateAnswer,
  AggregateGroup,
  AggregateRequest,
  PageContext,
  StableKeyValue,
} from "./pagination/page-context.js";
export { Paginated } from "./pagination/paginated.capability.js";
export type { PaginatedOptions } from "./pagination/paginated-options.js";
export type { PaginationSpec, StreamChunkSpec } from "./pagination/pagination-spec.js";
export { Project, type ProjectionSpec, type ProjectOptions } from "./pagination/project.capability.js";
export { type CallOutcome, OutcomeKey } from "./pipeline/call-outcome.js";
export type {
  Capability,
  CapabilityCall,
  CapabilityOperation,
  CapabilityServices,
  CapabilityStage,
  CapabilityStageFunction,
  CapabilityTarget,
  OperationKind,
} from "./pipeline/capability.js";
export {
  type InterceptedCall,
  type Interceptor,
  type InterceptorClass,
  type InterceptorRef,
  NextCalledTwiceError,
  type ProtocolResult,
} from "./pipeline/interceptor.js";
export type { StageName } from "./pipeline/order.js";
export type {
  CreateResourceOptions,
  ResourceHandle,
  ResourceInfo,
  ResourceSlice,
} from "./pipeline/resource-handle.js";
export type { InputLimits } from "./pipeline/stages/measure-input.js";
export { MAX_TOKENS_META } from "./pipeline/token-limit.js";
export type { AskOptions, McpLog, SampleOptions, ToolContext } from "./pipeline/tool-context.js";
export type { V2Transport } from "./protocol/registrar-2026/v2-transport.js";
export type { RedisClient, RedisClusterNode, RedisConnectionOptions } from "./redis/redis-connection.js";
export { audio, type ContentBlock, embeddedResource, image, resourceLink, text } from "./results/content.js";
export type { JsonObject, JsonValue } from "./results/json-value.js";
export { readObjectLines, readTable } from "./results/table-format.js";
export { toolError } from "./results/tool-error.js";
export { McpFactory } from "./runtime/mcp-factory.js";
export { MemorySessionStore } from "./sessions/memory-session-store.js";
export { RedisSessionStore, type RedisSessionStoreOptions } from "./sessions/redis-session-store.js";
export type { SessionChange, SessionLimits, SessionRecord, SessionStore } from "./sessions/session-store.js";
export { FileStorage, type FileStorageOptions } from "./storage/file-storage.js";
export { MemoryStorage, type MemoryStorageOptions } from "./storage/memory-storage.js";
export { RedisStorage, type RedisStorageOptions } from "./storage/redis-storage.js";
export { type S3ClientLike, S3Storage, type S3StorageOptions } from "./storage/s3-storage.js";
export type {
  ContentKind,
  ResourceStorage,
  SharedUsage,
  StoragePart,
  StoredResourceMeta,
  UsageClaim,
  UsageLimits,
  UsageRecord,
} from "./storage/storage.js";
export { StorageError, VersionConflictError } from "./storage/storage.js";
export { createTestClient, type TestClient, type TestClientOptions } from "./testing/create-test-client.js";
export {
  type BpeEncoding,
  BpeTokenCounter,
  type BpeTokenCounterOptions,
} from "./tokenizer/bpe-token-counter.js";
export type { TokenCount, TokenCounter } from "./tokenizer/token-counter.js";
export { CACHE, CLOCK, EVENT_BUS, LOGGER, SESSION_STORE, STORAGE, TOKEN_COUNTER } from "./tokens.js";
export type { Authenticate, AuthenticatedRequest, AuthOptions } from "./transports/authenticate.js";
export { CONNECTION_LIMIT_DEFAULTS, type ConnectionLimitOptions } from "./transports/connection-limits.js";
export type { HostPolicy } from "./transports/host-guard.js";
export type { HttpHandler, HttpHandlerOptions, HttpHandlerStats } from "./transports/http-handler.js";
export type { ListenOptions } from "./transports/listen.js";
export {
  EventStoreBudget,
  MemoryEventStore,
  type MemoryEventStoreOptions,
} from "./transports/memory-event-store.js";
export type { MountedHttpHandler } from "./transports/mounted-limits.js";
export {
  type FollowEnd,
  RedisEventStore,
  type RedisEventStoreOptions,
} from "./transports/redis-event-store.js";
export type { SharedEventStore } from "./transports/scoped-event-store.js";
export { MAX_URI_LENGTH } from "./uri/uri-limits.js";
