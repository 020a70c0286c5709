import { McpModule } from "frugal-mcp";
import { ArticlesRepository } from "./articles.repository.js";
import { ArticlesService } from "./articles.service.js";

/** The article catalogue: its service and its repository (on the app's `SQL_DATABASE`). */
@McpModule({ services: [ArticlesService], providers: [ArticlesRepository] })
export class ArticlesModule {}
