/**
 * A headless stand-in for the `vscode` module, rich enough for the real
 * `vscode-languageclient` to start a real server, sync one open C document,
 * and turn what the server sends into editor objects that the test reads:
 * diagnostics set on the collection, registered providers it can call.
 *
 * Names the client touches that are not defined here resolve to a generic
 * class (the client subclasses some, e.g. CodeAction, when it loads).
 * `install()` must run before the extension or the client is required.
 */
// The module loader itself (not an ES namespace copy) is what gets patched.
// eslint-disable-next-line @typescript-eslint/no-require-imports
import Module = require("node:module");
import * as path from "node:path";

type Listener = (value: unknown) => void;

class EventEmitter {
  private listeners: Listener[] = [];
  readonly event = (listener: Listener) => {
    this.listeners.push(listener);
    return { dispose: () => (this.listeners = this.listeners.filter((l) => l !== listener)) };
  };
  fire(value: unknown): void {
    for (const listener of [...this.listeners]) {
      listener(value);
    }
  }
  dispose(): void {
    this.listeners = [];
  }
}

const noEvent = () => ({ dispose: () => undefined });

class Disposable {
  constructor(private readonly run: () => void = () => undefined) {}
  static from(...items: { dispose(): unknown }[]) {
    return new Disposable(() => items.forEach((i) => i.dispose()));
  }
  dispose(): void {
    this.run();
  }
}

export class Uri {
  private constructor(
    readonly scheme: string,
    readonly path: string,
    private readonly text: string,
  ) {}
  static parse(text: string): Uri {
    const scheme = text.slice(0, text.indexOf(":"));
    const rest = text.slice(scheme.length + 1).replace(/^\/\//, "");
    return new Uri(scheme, decodeURIComponent(rest), text);
  }
  static file(file: string): Uri {
    const absolute = path.resolve(file);
    return new Uri("file", absolute, "file://" + absolute.split("/").map(encodeURIComponent).join("/"));
  }
  get fsPath(): string {
    return this.path;
  }
  toString(): string {
    return this.text;
  }
  toJSON() {
    return { scheme: this.scheme, path: this.path, external: this.text };
  }
  with(): Uri {
    return this;
  }
}

class Position {
  constructor(
    readonly line: number,
    readonly character: number,
  ) {}
}

class Range {
  readonly start: Position;
  readonly end: Position;
  constructor(a: Position | number, b: Position | number, c?: number, d?: number) {
    this.start = typeof a === "number" ? new Position(a, b as number) : a;
    this.end = typeof a === "number" ? new Position(c as number, d as number) : (b as Position);
  }
}

class Diagnostic {
  source?: string;
  code?: unknown;
  relatedInformation?: unknown[];
  tags?: unknown[];
  constructor(
    readonly range: Range,
    readonly message: string,
    readonly severity: number = 0,
  ) {}
}

class MarkdownString {
  constructor(public value: string = "") {}
  appendMarkdown(text: string) {
    this.value += text;
    return this;
  }
  appendCodeblock(code: string, language = "") {
    this.value += "\n```" + language + "\n" + code + "\n```\n";
    return this;
  }
}

class Hover {
  readonly contents: unknown[];
  constructor(
    contents: unknown,
    readonly range?: Range,
  ) {
    this.contents = Array.isArray(contents) ? contents : [contents];
  }
}

class CodeActionKind {
  static readonly Empty = new CodeActionKind("");
  static readonly QuickFix = new CodeActionKind("quickfix");
  static readonly Refactor = new CodeActionKind("refactor");
  static readonly RefactorExtract = new CodeActionKind("refactor.extract");
  static readonly RefactorInline = new CodeActionKind("refactor.inline");
  static readonly RefactorRewrite = new CodeActionKind("refactor.rewrite");
  static readonly Source = new CodeActionKind("source");
  static readonly SourceOrganizeImports = new CodeActionKind("source.organizeImports");
  static readonly SourceFixAll = new CodeActionKind("source.fixAll");
  constructor(readonly value: string) {}
  append(part: string) {
    return new CodeActionKind(this.value ? `${this.value}.${part}` : part);
  }
  contains(other: CodeActionKind) {
    return this.value === other.value || other.value.startsWith(this.value + ".");
  }
  intersects(other: CodeActionKind) {
    return this.contains(other) || other.contains(this);
  }
}

class CodeAction {
  command?: { title: string; command: string; arguments?: unknown[] };
  constructor(
    readonly title: string,
    readonly kind?: CodeActionKind,
  ) {}
}

class CodeLens {
  constructor(
    readonly range: Range,
    public command?: { title: string; command: string; arguments?: unknown[] },
  ) {}
  get isResolved() {
    return this.command !== undefined;
  }
}

class CancellationTokenSource {
  private emitter = new EventEmitter();
  readonly token = { isCancellationRequested: false, onCancellationRequested: this.emitter.event };
  cancel() {
    this.token.isCancellationRequested = true;
    this.emitter.fire(undefined);
  }
  dispose() {
    this.emitter.dispose();
  }
}

/** An open document: its text never changes in these tests. */
export class TextDocument {
  readonly languageId = "c";
  readonly version = 1;
  readonly isClosed = false;
  readonly isDirty = false;
  readonly isUntitled = false;
  readonly eol = 1;
  readonly uri: Uri;
  constructor(
    readonly fileName: string,
    private readonly text: string,
  ) {
    this.uri = Uri.file(fileName);
  }
  getText(): string {
    return this.text;
  }
  get lineCount(): number {
    return this.text.split("\n").length;
  }
}

export interface Recorded {
  documents: TextDocument[];
  diagnostics: Map<string, Diagnostic[]>;
  providers: Map<string, unknown[]>;
  commands: Map<string, (...args: unknown[]) => unknown>;
  messages: { level: string; text: string }[];
  config: Record<string, unknown>;
  statusItems: { text: string; tooltip: unknown }[];
  output: string[];
}

export const recorded: Recorded = {
  documents: [],
  diagnostics: new Map(),
  providers: new Map(),
  commands: new Map(),
  messages: [],
  config: {},
  statusItems: [],
  output: [],
};

function provider(kind: string) {
  return (_selector: unknown, impl: unknown) => {
    const list = recorded.providers.get(kind) ?? [];
    list.push(impl);
    recorded.providers.set(kind, list);
    return new Disposable();
  };
}

function outputChannel(name: string) {
  const write = (text: string) => recorded.output.push(`[${name}] ${text}`);
  return {
    name,
    append: write,
    appendLine: write,
    replace: write,
    clear: () => undefined,
    show: () => undefined,
    hide: () => undefined,
    dispose: () => undefined,
    trace: write,
    debug: write,
    info: write,
    warn: write,
    error: write,
    logLevel: 2,
    onDidChangeLogLevel: noEvent,
  };
}

function message(level: string) {
  return (text: string) => {
    recorded.messages.push({ level, text });
    return Promise.resolve(undefined);
  };
}

const api: Record<string, unknown> = {
  version: "1.82.0",
  Uri,
  Position,
  Range,
  Location: class {
    constructor(
      readonly uri: Uri,
      readonly range: Range,
    ) {}
  },
  Diagnostic,
  DiagnosticRelatedInformation: class {
    constructor(
      readonly location: unknown,
      readonly message: string,
    ) {}
  },
  DiagnosticSeverity: { Error: 0, Warning: 1, Information: 2, Hint: 3 },
  DiagnosticTag: { Unnecessary: 1, Deprecated: 2 },
  MarkdownString,
  Hover,
  CodeAction,
  CodeActionKind,
  CodeActionTriggerKind: { Invoke: 1, Automatic: 2 },
  CodeLens,
  Disposable,
  EventEmitter,
  CancellationTokenSource,
  CancellationError: class extends Error {},
  ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
  StatusBarAlignment: { Left: 1, Right: 2 },
  TextDocumentSaveReason: { Manual: 1, AfterDelay: 2, FocusOut: 3 },
  ThemeColor: class {
    constructor(readonly id: string) {}
  },
  env: { appName: "headless", language: "en", machineId: "test", sessionId: "test", openExternal: async () => true },
  window: {
    createOutputChannel: outputChannel,
    createStatusBarItem: () => {
      const item = { text: "", tooltip: undefined as unknown, show: () => undefined, hide: () => undefined, dispose: () => undefined };
      recorded.statusItems.push(item);
      return item;
    },
    showInformationMessage: message("info"),
    showWarningMessage: message("warning"),
    showErrorMessage: message("error"),
    withProgress: (_options: unknown, task: (progress: unknown, token: unknown) => Promise<unknown>) =>
      task({ report: () => undefined }, new CancellationTokenSource().token),
    activeTextEditor: undefined,
    visibleTextEditors: [],
    onDidChangeActiveTextEditor: noEvent,
    onDidChangeVisibleTextEditors: noEvent,
    tabGroups: { all: [], onDidChangeTabs: noEvent, onDidChangeTabGroups: noEvent },
  },
  commands: {
    registerCommand: (id: string, run: (...args: unknown[]) => unknown) => {
      if (recorded.commands.has(id)) {
        throw new Error(`command '${id}' already exists`);
      }
      recorded.commands.set(id, run);
      return new Disposable(() => recorded.commands.delete(id));
    },
    executeCommand: async (id: string, ...args: unknown[]) => recorded.commands.get(id)?.(...args),
  },
  workspace: {
    get textDocuments() {
      return recorded.documents;
    },
    workspaceFolders: undefined,
    getConfiguration: (section?: string) => ({
      get: (key: string, fallback?: unknown) => {
        const value = recorded.config[section ? `${section}.${key}` : key];
        return value === undefined ? fallback : value;
      },
      has: () => false,
      inspect: () => undefined,
      update: async () => undefined,
    }),
    onDidOpenTextDocument: noEvent,
    onDidCloseTextDocument: noEvent,
    onDidChangeTextDocument: noEvent,
    onDidSaveTextDocument: noEvent,
    onWillSaveTextDocument: noEvent,
    onDidChangeConfiguration: noEvent,
    onDidChangeWorkspaceFolders: noEvent,
    onDidCreateFiles: noEvent,
    onDidRenameFiles: noEvent,
    onDidDeleteFiles: noEvent,
    onWillCreateFiles: noEvent,
    onWillRenameFiles: noEvent,
    onWillDeleteFiles: noEvent,
    createFileSystemWatcher: () => ({ onDidCreate: noEvent, onDidChange: noEvent, onDidDelete: noEvent, dispose: () => undefined }),
    applyEdit: async () => true,
  },
  languages: {
    match: (selector: unknown, document: TextDocument) => {
      const filters = (Array.isArray(selector) ? selector : [selector]) as { language?: string; scheme?: string }[];
      return filters.some(
        (f) => (f.language === undefined || f.language === document.languageId) && (f.scheme === undefined || f.scheme === document.uri.scheme),
      )
        ? 10
        : 0;
    },
    createDiagnosticCollection: (name: string) => ({
      name,
      set: (uri: Uri, diagnostics: Diagnostic[] | undefined) => recorded.diagnostics.set(uri.toString(), diagnostics ?? []),
      delete: (uri: Uri) => recorded.diagnostics.delete(uri.toString()),
      clear: () => recorded.diagnostics.clear(),
      forEach: () => undefined,
      get: (uri: Uri) => recorded.diagnostics.get(uri.toString()),
      has: (uri: Uri) => recorded.diagnostics.has(uri.toString()),
      dispose: () => undefined,
    }),
    registerHoverProvider: provider("hover"),
    registerCodeActionsProvider: provider("codeAction"),
    registerCodeLensProvider: provider("codeLens"),
    onDidChangeDiagnostics: noEvent,
  },
  extensions: { all: [], getExtension: () => undefined, onDidChange: noEvent },
};

const generics = new Map<string, unknown>();

/** `vscode`: the names above, and a generic class for any other. */
export const vscode = new Proxy(api, {
  get(target, name) {
    if (typeof name !== "string" || name in target) {
      return target[name as string];
    }
    if (name.startsWith("register")) {
      return provider(name);
    }
    if (!generics.has(name)) {
      generics.set(name, class {
        constructor(...args: unknown[]) {
          Object.assign(this, { args });
        }
      });
    }
    return generics.get(name);
  },
});
// Provider registration lives on `languages`; anything not listed there
// registers generically too.
api.languages = new Proxy(api.languages as Record<string, unknown>, {
  get(target, name) {
    if (typeof name === "string" && !(name in target) && name.startsWith("register")) {
      return provider(name);
    }
    return target[name as string];
  },
});

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
    return original.call(this, request, ...rest);
  };
}
