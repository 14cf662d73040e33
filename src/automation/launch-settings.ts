/**
 * The launch settings, one row each: what `launchPipeline` and `relaunchRun` take, what the
 * launch request gets, and the flag of `seqera-api launch` / `relaunch` (tw's). The settings'
 * type, the request building, the command line's options and the docs' tables (`npm run
 * readme`) all come from this table, so a new setting is one row here.
 */
import type { LaunchRequest } from "../schema/types.js";

/** How the command line takes a setting. */
export interface LaunchFlag {
  /** The long option, as tw names it. */
  readonly name: string;
  readonly short?: string;
  /** Other names the command line accepts for it. */
  readonly aliases?: readonly string[];
  /** The value's placeholder in help; none for a switch (`--stub-run`). */
  readonly value?: string;
  /** Repeated or comma-separated, as tw takes lists. */
  readonly list?: boolean;
  /** Repeated: every value, in the order given (each file merged over the ones before). */
  readonly repeated?: boolean;
  /** The value names a file whose text is the setting (`--config file` sends `configText`). */
  readonly file?: boolean;
  /** The values it takes. */
  readonly choices?: readonly string[];
  /** Only this command takes it. */
  readonly only?: "launch" | "relaunch";
  readonly help: string;
}

export interface LaunchSetting {
  /** Sent as the launch request's field of the same name, as given; else the helper applies it. */
  readonly copied: boolean;
  /** What the request gets, for the docs. */
  readonly sentAs: string;
  readonly flag?: LaunchFlag;
}

export const LAUNCH_SETTINGS = {
  params: {
    copied: false,
    sentAs: "`paramsText`, deep-merged over the saved params (JSON or YAML kept)",
    flag: {
      name: "params-file",
      aliases: ["params"],
      value: "file",
      repeated: true,
      help: "Params (JSON or YAML) deep-merged over the saved ones; repeated, each over the ones before; - reads them from standard input.",
    },
  },
  computeEnv: {
    copied: false,
    sentAs: "`computeEnvId` of the AVAILABLE one of that name or id, and its `workDir`",
    flag: {
      name: "compute-env",
      short: "c",
      value: "name",
      help: "The compute environment by name, with its work directory; default the saved one, else the workspace's primary.",
    },
  },
  labels: {
    copied: false,
    sentAs: '`labelIds`: `"name"` plain, `"name=value"` resource labels; missing ones are created',
    flag: {
      name: "labels",
      short: "l",
      aliases: ["label"],
      list: true,
      value: "a,b=c",
      only: "launch",
      help: "Labels, comma-separated or repeated; name=value is a resource label. Missing ones are created (said on stderr).",
    },
  },
  runName: {
    copied: true,
    sentAs: "`runName`",
    flag: {
      name: "name",
      short: "n",
      aliases: ["run-name"],
      value: "name",
      help: "The run's name.",
    },
  },
  workDir: {
    copied: true,
    sentAs: "`workDir`; default the saved one, else the compute environment's",
    flag: {
      name: "work-dir",
      value: "path",
      help: "The work directory (s3://bucket/work, /scratch...).",
    },
  },
  configProfiles: {
    copied: true,
    sentAs: "`configProfiles`",
    flag: {
      name: "profile",
      list: true,
      value: "a,b",
      help: "Nextflow config profiles, comma-separated or repeated.",
    },
  },
  revision: {
    copied: true,
    sentAs: "`revision`: a branch, tag or commit",
    flag: {
      name: "revision",
      short: "r",
      value: "ref",
      help: "A branch, tag or commit of the pipeline.",
    },
  },
  configText: {
    copied: true,
    sentAs: "`configText`: Nextflow config added to the run's",
    flag: {
      name: "config",
      value: "file",
      file: true,
      help: "Nextflow config added to the pipeline's (its text is sent as configText).",
    },
  },
  preRunScript: {
    copied: true,
    sentAs: "`preRunScript`: a Bash script run before Nextflow",
    flag: {
      name: "pre-run",
      value: "file",
      file: true,
      help: "A Bash script run where Nextflow runs, before the pipeline.",
    },
  },
  postRunScript: {
    copied: true,
    sentAs: "`postRunScript`: a Bash script run after Nextflow",
    flag: {
      name: "post-run",
      value: "file",
      file: true,
      help: "A Bash script run where Nextflow runs, after the pipeline.",
    },
  },
  mainScript: {
    copied: true,
    sentAs: "`mainScript`, when not main.nf",
    flag: {
      name: "main-script",
      value: "file",
      help: "The pipeline's main script, if not main.nf.",
    },
  },
  entryName: {
    copied: true,
    sentAs: "`entryName`: the DSL2 workflow to run",
    flag: { name: "entry-name", value: "name", help: "The workflow to run (DSL2 entry name)." },
  },
  schemaName: {
    copied: true,
    sentAs: "`schemaName`: the params schema file",
    flag: { name: "schema-name", value: "file", help: "The pipeline's params schema file." },
  },
  pullLatest: {
    copied: true,
    sentAs: "`pullLatest`",
    flag: {
      name: "pull-latest",
      help: "Pull the latest version of the repository before running.",
    },
  },
  stubRun: {
    copied: true,
    sentAs: "`stubRun`",
    flag: { name: "stub-run", help: "Run the processes' stubs instead of their scripts." },
  },
  userSecrets: {
    copied: true,
    sentAs: "`userSecrets`: the launching user's pipeline secrets, by name",
    flag: {
      name: "user-secrets",
      list: true,
      value: "a,b",
      help: "Pipeline secrets of yours the run may read, by name.",
    },
  },
  workspaceSecrets: {
    copied: true,
    sentAs: "`workspaceSecrets`: the workspace's pipeline secrets, by name",
    flag: {
      name: "workspace-secrets",
      list: true,
      value: "a,b",
      help: "Pipeline secrets of the workspace the run may read, by name.",
    },
  },
  launchContainer: {
    copied: true,
    sentAs: "`launchContainer`: the Nextflow head job's container",
    flag: {
      name: "launch-container",
      value: "image",
      help: "The container of the Nextflow head job.",
    },
  },
  outputDir: {
    copied: true,
    sentAs: "`outputDir` (Nextflow `-output-dir`)",
    flag: {
      name: "output-dir",
      value: "path",
      help: "The run's output directory (Nextflow -output-dir).",
    },
  },
  syntaxParser: {
    copied: true,
    sentAs: "`syntaxParser`",
    flag: {
      name: "syntax-parser",
      value: "v1|v2",
      choices: ["v1", "v2"],
      help: "The Nextflow syntax parser: v1 (legacy) or v2.",
    },
  },
  nextflowVersion: {
    copied: true,
    sentAs:
      "`nextflowVersion`, checked first against `GET /platform/versions` (API 1.187.0+; see below)",
    flag: {
      name: "nextflow-version",
      value: "version",
      help: "The Nextflow version to run with, checked against the service's catalog first (API 1.187.0+).",
    },
  },
  commitId: {
    copied: true,
    sentAs: "`commitId`; unset, the service resolves `revision`",
    flag: {
      name: "commit-id",
      value: "sha",
      only: "relaunch",
      help: "Pin the run to this commit (default: the revision, resolved by the service).",
    },
  },
  pipelineSchemaId: { copied: true, sentAs: "`pipelineSchemaId`: the params schema, by id" },
  headJobCpus: { copied: true, sentAs: "`headJobCpus`: CPUs of the Nextflow head job" },
  headJobMemoryMb: { copied: true, sentAs: "`headJobMemoryMb`: memory of the head job, in MB" },
  disableOptimization: {
    copied: false,
    sentAs: "no `optimizationId` / `optimizationTargets`",
    flag: {
      name: "disable-optimization",
      only: "launch",
      help: "Launch without the pipeline's resource optimization.",
    },
  },
} as const satisfies Record<string, LaunchSetting>;

type Settings = typeof LAUNCH_SETTINGS;
/** The settings sent as the request's field of the same name. */
export type CopiedSetting = {
  [K in keyof Settings]: Settings[K]["copied"] extends true ? K : never;
}[keyof Settings] &
  keyof LaunchRequest;

/** The copied settings' values, as the launch request types them. */
export type CopiedSettings = { [K in CopiedSetting]?: NonNullable<LaunchRequest[K]> };

/** The table's rows, with their keys. */
export const launchSettingRows = (): [keyof Settings, LaunchSetting][] =>
  Object.entries(LAUNCH_SETTINGS) as [keyof Settings, LaunchSetting][];

/** Sets each copied setting the caller gave on the request; unset ones keep the saved value. */
export function applyCopiedSettings(request: LaunchRequest, settings: CopiedSettings): void {
  const target = request as Record<string, unknown>;
  for (const [key, setting] of launchSettingRows()) {
    const value = (settings as Record<string, unknown>)[key];
    if (setting.copied && value !== undefined) target[key] = value;
  }
}
