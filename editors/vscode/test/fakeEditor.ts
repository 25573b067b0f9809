/**
 * Stand-ins for the `vscode` module and `vscode-languageclient/node`, enough
 * for the extension to activate under node's test runner, recording what the
 * extension does (commands registered, messages shown, requests sent).
 *
 * `install()` must run before the extension's module is first required.
 */
// The module loader itself (not an ES namespace copy) is what gets patched.
// eslint-disable-next-line @typescript-eslint/no-require-imports
import Module = require("node:module");

export interface ShownMessage {
  level: "info" | "warning" | "error";
  text: string;
  actions: string[];
}

export interface FakeEditorState {
  commands: Map<string, (...args: unknown[]) => unknown>;
  messages: ShownMessage[];
  config: Record<string, unknown>;
  statusItems: { text: string; tooltip: unknown; shown: boolean }[];
  activeTextEditor: unknown;
  clients: FakeClient[];
  configListeners: ((event: { affectsConfiguration(section: string): boolean }) => void)[];
  /** What `start()` of the next client does. */
  startError: Error | undefined;
}

export const state: FakeEditorState = {
  commands: new Map(),
  messages: [],
  config: {},
  statusItems: [],
  activeTextEditor: undefined,
  clients: [],
  configListeners: [],
  startError: undefined,
};

export function reset(defaults: Record<string, unknown>): void {
  state.commands.clear();
  state.messages.length = 0;
  state.config = { ...defaults };
  state.statusItems.length = 0;
  state.activeTextEditor = undefined;
  state.clients.length = 0;
  state.configListeners.length = 0;
  state.startError = undefined;
}

const disposable = { dispose: () => undefined };

function message(level: ShownMessage["level"]) {
  return (text: string, ...actions: string[]) => {
    state.messages.push({ level, text, actions });
    return Promise.resolve(undefined);
  };
}

export const vscode = {
  StatusBarAlignment: { Left: 1, Right: 2 },
  ThemeColor: class {
    constructor(readonly id: string) {}
  },
  window: {
    createOutputChannel: (name: string) => ({
      name,
      lines: [] as string[],
      appendLine(line: string) {
        this.lines.push(line);
      },
      show: () => undefined,
      dispose: () => undefined,
    }),
    createStatusBarItem: () => {
      const item = { text: "", tooltip: undefined as unknown, shown: false, name: "", command: "", backgroundColor: undefined,
        show() { item.shown = true; }, dispose: () => undefined };
      state.statusItems.push(item);
      return item;
    },
    showInformationMessage: message("info"),
    showWarningMessage: message("warning"),
    showErrorMessage: message("error"),
    get activeTextEditor() {
      return state.activeTextEditor;
    },
  },
  commands: {
    registerCommand: (id: string, run: (...args: unknown[]) => unknown) => {
      if (state.commands.has(id)) {
        throw new Error(`command '${id}' already exists`);
      }
      state.commands.set(id, run);
      return { dispose: () => state.commands.delete(id) };
    },
    executeCommand: () => Promise.resolve(undefined),
  },
  workspace: {
    getConfiguration: (section: string) => ({
      get: (key: string) => state.config[`${section}.${key}`],
    }),
    onDidChangeConfiguration: (listener: FakeEditorState["configListeners"][number]) => {
      state.configListeners.push(listener);
      return disposable;
    },
  },
};

export const State = { Stopped: 1, Running: 2, Starting: 3 };
export const TransportKind = { stdio: 0, ipc: 1, pipe: 2, socket: 3 };

export class FakeClient {
  running = false;
  requests: { method: string; params: unknown }[] = [];
  notifications: { method: string; params: unknown }[] = [];
  private stateListeners: ((e: { oldState: number; newState: number }) => void)[] = [];

  constructor(
    readonly id: string,
    readonly name: string,
    readonly serverOptions: { command: string; args: string[]; transport: number },
    readonly clientOptions: {
      documentSelector: { scheme: string; language: string }[];
      initializationOptions: Record<string, unknown>;
      middleware: {
        workspace: {
          configuration: (params: { items: { section?: string }[] }, token: unknown, next: unknown) => unknown;
        };
        handleWorkDoneProgress: (token: string | number, params: unknown, next: () => void) => void;
      };
    },
  ) {
    state.clients.push(this);
  }

  onDidChangeState(listener: (e: { oldState: number; newState: number }) => void) {
    this.stateListeners.push(listener);
    return disposable;
  }

  async start(): Promise<void> {
    if (state.startError !== undefined) {
      throw state.startError;
    }
    this.running = true;
    for (const listener of this.stateListeners) {
      listener({ oldState: State.Starting, newState: State.Running });
    }
  }

  async stop(): Promise<void> {
    this.running = false;
    for (const listener of this.stateListeners) {
      listener({ oldState: State.Running, newState: State.Stopped });
    }
  }

  isRunning(): boolean {
    return this.running;
  }

  async sendNotification(method: string, params: unknown): Promise<void> {
    this.notifications.push({ method, params });
  }

  async sendRequest(method: string, params: unknown): Promise<unknown> {
    this.requests.push({ method, params });
    return null;
  }
}

export const languageClient = { LanguageClient: FakeClient, State, TransportKind };

let installed = false;

export function install(): void {
  if (installed) {
    return;
  }
  installed = true;
  const loader = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
  const original = loader._load;
  loader._load = function (request: string, ...rest: unknown[]) {
    if (request === "vscode") {
      return vscode;
    }
    if (request === "vscode-languageclient/node") {
      return languageClient;
    }
    return original.call(this, request, ...rest);
  };
}

/** Fire a configuration change touching the given keys (e.g. "distaff.unwind"). */
export function changeConfiguration(...keys: string[]): void {
  const event = {
    affectsConfiguration: (section: string) => keys.some((k) => k === section || k.startsWith(section + ".")),
  };
  for (const listener of state.configListeners) {
    listener(event);
  }
}
