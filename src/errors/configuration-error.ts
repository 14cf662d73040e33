/** Bad client options or environment (token, base URL, workspace id), raised before any request. */
export class ConfigurationError extends Error {}
ConfigurationError.prototype.name = "ConfigurationError";
