import { operations } from "../../../generated/operations.js";
import { loadDocument } from "../../openapi/operations-document.js";
import { actionRoutes } from "./actions.js";
import { routesByShape } from "./by-shape.js";
import { computeEnvRoutes } from "./compute-envs.js";
import type { StateRoute } from "./context.js";
import { credentialsRoutes } from "./credentials.js";
import { dataLinkRoutes } from "./data-links.js";
import { datasetRoutes } from "./datasets.js";
import { labelRoutes } from "./labels.js";
import { organizationRoutes } from "./organizations.js";
import { pipelineRoutes } from "./pipelines.js";
import { pipelineVersionRoutes } from "./pipeline-versions.js";
import { runLogRoutes } from "./run-logs.js";
import { runRoutes } from "./runs.js";
import { secretRoutes } from "./secrets.js";
import { studioRoutes } from "./studios.js";
import { teamRoutes } from "./teams.js";

/** The families modelled by hand, with the service's own rules. */
const byHand: Record<string, StateRoute> = {
  ...organizationRoutes,
  ...teamRoutes,
  ...pipelineRoutes,
  ...pipelineVersionRoutes,
  ...computeEnvRoutes,
  ...labelRoutes,
  ...credentialsRoutes,
  ...secretRoutes,
  ...datasetRoutes,
  ...runRoutes,
  ...runLogRoutes,
  ...studioRoutes,
  ...dataLinkRoutes,
};

/** The operations of every other collection, answered by the rule of their path shapes. */
export const routesKeptByRule = routesByShape(loadDocument(), operations, byHand);

/** Every operation answered from the emulator's state, by operationId; the rest is sampled. */
export const stateRoutes: Record<string, StateRoute> = {
  ...byHand,
  ...routesKeptByRule,
  ...actionRoutes(routesKeptByRule),
};
