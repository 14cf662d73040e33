import { loadAjv } from "../openapi/ajv.js";

/**
 * The emulator's validation libraries are optional peer dependencies, so that installs which
 * never import `seqera-api-client/testing` do not carry them. Loading them here, when the
 * testing entry is imported, turns a missing one into an error that says what to install.
 */
export const newAjv = loadAjv("seqera-api-client/testing (the emulator)");
