/**
 * Compile-time checks (run by `npm run test:types`, and by `npm run typecheck`): every class
 * decorator takes an abstract class as well as a concrete one. An abstract base written once
 * and subclassed (the flagship's log tail, a repository per database) is decorated so that its
 * constructor's parameter types are recorded; tsyringe's own `injectable()` type refused that
 * with TS1238 ("Unable to resolve signature of class decorator").
 */
import "reflect-metadata";
import {
  Budget,
  Injectable,
  type InterceptedCall,
  type Interceptor,
  McpModule,
  McpService,
  type ProtocolResult,
  SystemClock,
  Tool,
  UseInterceptors,
} from "frugal-mcp";

class AuditLog implements Interceptor {
  intercept(_call: InterceptedCall, next: () => Promise<ProtocolResult>) {
    return next();
  }
}

@Injectable()
export abstract class LogSource {
  constructor(protected readonly clock: SystemClock) {}
  abstract lines(): string[];
}

@Injectable({ token: "log-source" })
export abstract class TokenedSource {
  abstract lines(): string[];
}

@McpService()
@Budget(500)
@UseInterceptors(AuditLog)
export abstract class TailService {
  constructor(protected readonly source: LogSource) {}
  @Tool({ description: "The last lines" })
  tail() {
    return this.source.lines().slice(-10);
  }
}

@McpModule({ services: [] })
export abstract class AbstractModule {}

@Injectable()
export class FileSource extends LogSource {
  lines() {
    return [`read at ${this.clock.now()}`];
  }
}
