import { McpModule } from "frugal-mcp";
import { Ledger, TransfersService } from "./transfers.service.js";

@McpModule({ services: [TransfersService], providers: [{ provide: Ledger, useClass: Ledger }] })
export class TransfersModule {}
