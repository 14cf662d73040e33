import { compareVersions } from "../../core/versions.js";

/** The Nextflow version catalog a seed may give (`GET /platform/versions`, API 1.187.0+). */
export interface NextflowCatalogInit {
  /** The versions a launch may choose, oldest first; default 24.10.6, 25.04.8, 25.10.2. */
  versions?: string[];
  /** The default among them; default the first. */
  default?: string;
  /** The minimum per compute environment type (`platform`, e.g. "aws-batch"); default none. */
  minVersions?: Record<string, string>;
  /** Whether a launch may choose at all; default true. */
  selectionEnabled?: boolean;
}

/** The catalog as the emulator answers and checks launches with it. */
export class NextflowCatalog {
  readonly versions: readonly string[];
  readonly default: string | undefined;
  readonly minVersions: Readonly<Record<string, string>>;
  readonly selectionEnabled: boolean;

  constructor(init: NextflowCatalogInit = {}) {
    this.versions = init.versions ?? ["24.10.6", "25.04.8", "25.10.2"];
    this.default = init.default ?? this.versions[0];
    this.minVersions = init.minVersions ?? {};
    this.selectionEnabled = init.selectionEnabled ?? true;
  }

  /** Why the service would refuse to launch `version` on a compute environment of `platform`. */
  refusal(version: string, platform: string): string | undefined {
    if (!this.selectionEnabled) return "Nextflow version selection is not enabled";
    if (!this.versions.includes(version)) return `Nextflow version '${version}' is not available`;
    const min = this.minVersions[platform];
    if (min && compareVersions(version, min) < 0) {
      return `Nextflow version '${version}' is below the minimum ${min} for ${platform}`;
    }
    return undefined;
  }
}
