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
    const code = (error as { code?: string }).code;
    const missing =
      (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") &&
      String(error).includes(`'${name}'`);
    if (!missing) throw error;
    throw new ConfigurationError(
      `${feature} needs the optional peer dependency ${name}; install it beside seqera-api-client: npm install ${install}`,
      { cause: error },
    );
  }
}
