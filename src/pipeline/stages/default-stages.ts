import { budgetStage } from "../../budget/budget.stage.js";
import { cacheStage } from "../../cache/cache.stage.js";
import { spillStage } from "../../ephemeral/spill.stage.js";
import { invalidateStage } from "../../events/invalidate.stage.js";
import { decodeCursorStage } from "../../pagination/decode-cursor.stage.js";
import { paginateStage } from "../../pagination/paginate.stage.js";
import type { StageFactory } from "../stage-factory.js";
import { shapeStage } from "./shape.stage.js";
import { validateStage } from "./validate.stage.js";

/**
 * The stage factories every app uses. Capabilities (pagination, cache, budget, spill)
 * add theirs here; `buildRegistry` sorts them into `PIPELINE_ORDER`.
 */
export const DEFAULT_STAGES: readonly StageFactory[] = [
  validateStage,
  invalidateStage,
  decodeCursorStage,
  cacheStage,
  shapeStage,
  spillStage,
  budgetStage,
  paginateStage,
];
