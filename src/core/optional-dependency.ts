import { createRequire } from "node:module";
import { ConfigurationError } from "../errors/configuration-error.js";

/**
 * Imports an optional peer dependency (ioredis, ajv, ajv-formats): installs that never use the
 * feature needing it do not carry it. A missing one is a ConfigurationError saying what to
 * install; any other failure of the import is rethrown as it is.
 */
export async function importOptional<T>(
  name: string,
  feature: string,
  install: string = name,
): Promise<T> {
  try {
    return (await import(name)) as T;
  } catch (error) {
    throw missingPeer(error, name, feature, install);
  }
}

/**
 * requireOptional is importOptional without a promise, for a CommonJS peer loaded when a module
 * is evaluated: a top-level await would make that module, and every entry importing it,
 * impossible to `require()` (ERR_REQUIRE_ASYNC_MODULE).
 */
export function requireOptional<T>(name: string, feature: string, install: string = name): T {
  try {
    return createRequire(import.meta.url)(name) as T;
  } catch (error) {
    throw missingPeer(error, name, feature, install);
  }
}

/** A missing peer as the ConfigurationError saying what to install; any other error as it is. */
function missingPeer(error: unknown, name: string, feature: string, install: string): unknown {
  const code = (error as { code?: string }).code;
  const missing =
    (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") &&
    String(error).includes(`'${name}'`);
  if (!missing) return error;
  return new ConfigurationError(
    `${feature} needs the optional peer dependency ${name}; install it beside seqera-api-client: npm install ${install}`,
    { cause: error },
  );
}
