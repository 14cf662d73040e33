/**
 * The emulator's validation libraries are optional peer dependencies, so that installs which
 * never import `seqera-api-client/testing` do not carry them. Loading them here, when the
 * testing entry is imported, turns a missing one into an error that says what to install.
 */
async function load<T>(name: string): Promise<T> {
  try {
    return (await import(name)) as T;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code !== "ERR_MODULE_NOT_FOUND" || !String(error).includes(`'${name}'`)) throw error;
    throw new Error(
      `seqera-api-client/testing needs the optional peer dependencies ajv and ajv-formats; ` +
        `install them beside it: npm install --save-dev ajv@^8 ajv-formats@^3`,
      { cause: error },
    );
  }
}

type FormatsPlugin = (typeof import("ajv-formats"))["default"]["default"];

const ajvModule = await load<typeof import("ajv")>("ajv");
// ajv-formats is CommonJS: the plugin is its module object, the default export.
const formatsModule = await load<{ default: FormatsPlugin }>("ajv-formats");

export const Ajv = ajvModule.Ajv;
export const addFormats: FormatsPlugin = formatsModule.default;
