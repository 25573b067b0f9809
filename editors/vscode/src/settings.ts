/**
 * The `distaff.*` settings: which of them the language server reads, their
 * defaults and allowed values, and how the server process is launched.
 *
 * Pure: no `vscode` import, so the mapping is tested without an editor.
 * `SERVER_SETTINGS` mirrors the server's settings dataclass (server/settings.py)
 * key for key; package.json's `contributes.configuration` mirrors this table
 * (a test keeps the two in step).
 */

/** A setting the server reads, with its default and what it accepts. */
export interface SettingSpec {
  readonly key: string;
  readonly default: string | number | boolean | null;
  /** For strings: the accepted values. */
  readonly choices?: readonly string[];
  /** For numbers: inclusive bounds, and whether the value must be whole. */
  readonly minimum?: number;
  readonly maximum?: number;
  readonly integer?: boolean;
  /** `null` is accepted and means "no limit". */
  readonly nullable?: boolean;
}

export const SERVER_SETTINGS: readonly SettingSpec[] = [
  { key: "checkOn", default: "save", choices: ["save", "change", "manual"] },
  { key: "debounceMs", default: 500, minimum: 0, maximum: 60_000, integer: true },
  { key: "mode", default: "dpor-ag", choices: ["baseline", "dpor", "dpor-ag", "rf"] },
  { key: "unwind", default: 8, minimum: 1, maximum: 1000, integer: true },
  { key: "timeout", default: 30, minimum: 0, nullable: true },
  { key: "workers", default: 1, minimum: 1, maximum: 256, integer: true },
  { key: "maxMemoryMB", default: 2048, minimum: 0, maximum: 1 << 20, integer: true },
  { key: "traceInMessage", default: "auto", choices: ["auto", "always", "never"] },
  { key: "races", default: false },
  { key: "spuriousWakeups", default: true },
  { key: "findingsTimeout", default: 10, minimum: 0, nullable: true },
  { key: "memoryModel", default: "sc", choices: ["sc", "rc11"] },
  { key: "symArgs", default: 2, minimum: 0, maximum: 16, integer: true },
  { key: "symArgLen", default: 8, minimum: 1, maximum: 64, integer: true },
];

export type ServerSettings = Record<string, string | number | boolean | null>;

/** Reads one raw value of the `distaff` section (undefined when unset). */
export type SettingReader = (key: string) => unknown;

function accepted(spec: SettingSpec, value: unknown): boolean {
  if (value === null) {
    return spec.nullable === true;
  }
  if (spec.choices !== undefined) {
    return typeof value === "string" && spec.choices.includes(value);
  }
  if (typeof spec.default === "boolean") {
    return typeof value === "boolean";
  }
  if (typeof value !== "number" || !Number.isFinite(value)) {
    return false;
  }
  if (spec.integer === true && !Number.isInteger(value)) {
    return false;
  }
  return (spec.minimum === undefined || value >= spec.minimum) && (spec.maximum === undefined || value <= spec.maximum);
}

/**
 * The object the server gets for `workspace/configuration` of section
 * `distaff` (and as `initializationOptions`): exactly the server's keys, each
 * either the user's value or, when that is missing or invalid, the default.
 * Client-only settings (`server.*`, `trace.*`) are not sent.
 * `problems` names each rejected value so the user can be told.
 */
export function serverSettings(read: SettingReader): {
  settings: ServerSettings;
  problems: string[];
} {
  const settings: ServerSettings = {};
  const problems: string[] = [];
  for (const spec of SERVER_SETTINGS) {
    const value = read(spec.key);
    if (value === undefined) {
      settings[spec.key] = spec.default;
    } else if (accepted(spec, value)) {
      settings[spec.key] = value as string | number | boolean | null;
    } else {
      settings[spec.key] = spec.default;
      problems.push(
        `distaff.${spec.key}: ${JSON.stringify(value)} is not accepted, using ${JSON.stringify(spec.default)}`,
      );
    }
  }
  return { settings, problems };
}

/** How to start the server: an executable and its arguments. */
export interface ServerLaunch {
  readonly command: string;
  readonly args: readonly string[];
  /** Which setting chose it, for error messages. */
  readonly from: "distaff.server.pythonPath" | "distaff.server.command";
}

/**
 * `distaff.server.pythonPath`, when set, wins and runs `PYTHON -m distaff.server`
 * (for a checkout or a virtualenv without the `distaff` script on PATH);
 * otherwise `distaff.server.command` (default `distaff`) runs with `lsp`.
 */
export function serverLaunch(read: SettingReader): ServerLaunch {
  const python = read("server.pythonPath");
  if (typeof python === "string" && python.trim() !== "") {
    return { command: python.trim(), args: ["-m", "distaff.server"], from: "distaff.server.pythonPath" };
  }
  const command = read("server.command");
  const executable = typeof command === "string" && command.trim() !== "" ? command.trim() : "distaff";
  return { command: executable, args: ["lsp"], from: "distaff.server.command" };
}

/** The message shown when the server cannot be started, with the fix. */
export function startFailureMessage(launch: ServerLaunch, error: unknown): string {
  const reason = error instanceof Error ? error.message : String(error);
  const shown = [launch.command, ...launch.args].join(" ");
  const fix =
    launch.from === "distaff.server.pythonPath"
      ? `Check that "${launch.command}" is a Python 3.11+ interpreter with distaff installed ` +
        `(\`${launch.command} -m pip install distaff\`), or clear distaff.server.pythonPath.`
      : `Install distaff so that \`${launch.command}\` is on PATH (\`pip install distaff\`), ` +
        `set distaff.server.command to the full path of the distaff script, ` +
        `or set distaff.server.pythonPath to a Python that has it installed.`;
  return `distaff: the language server could not be started with \`${shown}\` (${reason}). ${fix}`;
}
