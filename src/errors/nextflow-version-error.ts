import { ConfigurationError } from "./configuration-error.js";

/**
 * A launch asked for a Nextflow version the service would refuse: not in its catalog
 * (`GET /platform/versions`), below the minimum of the compute environment's type, or not
 * selectable there. Nothing was launched. A ConfigurationError: the setting needs changing.
 */
export class NextflowVersionError extends ConfigurationError {
  /** The version asked for. */
  readonly version: string;
  /** The versions the catalog offers, in its order. */
  readonly available: readonly string[];
  /** The compute environment's type (its `platform`, e.g. "aws-batch"), when the check used it. */
  readonly computeEnvType: string | undefined;
  /** The minimum the service sets for that type, when there is one. */
  readonly minVersion: string | undefined;

  constructor(
    message: string,
    details: {
      version: string;
      available: readonly string[];
      computeEnvType?: string;
      minVersion?: string;
    },
  ) {
    super(message);
    this.version = details.version;
    this.available = details.available;
    this.computeEnvType = details.computeEnvType;
    this.minVersion = details.minVersion;
  }
}
NextflowVersionError.prototype.name = "NextflowVersionError";
