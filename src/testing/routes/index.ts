import { computeEnvRoutes } from "./compute-envs.js";
import type { StateRoute } from "./context.js";
import { credentialsRoutes } from "./credentials.js";
import { datasetRoutes } from "./datasets.js";
import { labelRoutes } from "./labels.js";
import { organizationRoutes } from "./organizations.js";
import { pipelineRoutes } from "./pipelines.js";
import { runLogRoutes } from "./run-logs.js";
import { runRoutes } from "./runs.js";
import { secretRoutes } from "./secrets.js";

/** Every operation answered from the emulator's state, by operationId; others are sampled. */
export const stateRoutes: Record<string, StateRoute> = {
  ...organizationRoutes,
  ...pipelineRoutes,
  ...computeEnvRoutes,
  ...labelRoutes,
  ...credentialsRoutes,
  ...secretRoutes,
  ...datasetRoutes,
  ...runRoutes,
  ...runLogRoutes,
};
