/**
 * The VS Code extension: starts `distaff lsp` for C files, forwards the
 * palette commands to it, keeps the status bar item current.
 *
 * Everything decided here is in the pure modules (settings, commands,
 * status); this file only wires them to the `vscode` API and the client.
 */
import * as vscode from "vscode";
import {
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  State,
  TransportKind,
} from "vscode-languageclient/node";

import { CLIENT_COMMANDS, FORWARDING_COMMANDS, ForwardingCommand, serverCall } from "./commands";
import { findExecutable } from "./executable";
import { serverLaunch, serverSettings, startFailureMessage, ServerLaunch } from "./settings";
import { CheckStatus, WorkDoneValue } from "./status";

const SECTION = "distaff";

/** The extension's live parts; one per activation. */
class Extension {
  client: LanguageClient | undefined;
  readonly status = new CheckStatus();
  readonly output: vscode.OutputChannel;
  readonly statusItem: vscode.StatusBarItem;
  private reportedProblems = "";

  constructor(readonly context: vscode.ExtensionContext) {
    this.output = vscode.window.createOutputChannel("distaff");
    this.statusItem = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 0);
    this.statusItem.name = "distaff";
    this.statusItem.command = CLIENT_COMMANDS.showOutput;
    context.subscriptions.push(this.output, this.statusItem);
    this.render();
    this.statusItem.show();
  }

  render(): void {
    const view = this.status.view();
    this.statusItem.text = view.text;
    this.statusItem.tooltip = view.tooltip;
    this.statusItem.backgroundColor = view.error
      ? new vscode.ThemeColor("statusBarItem.errorBackground")
      : undefined;
  }

  /** One raw value of the `distaff` section (package.json's default when unset). */
  private read(key: string): unknown {
    return vscode.workspace.getConfiguration(SECTION).get(key);
  }

  /** The settings sent to the server; tells the user once about rejected values. */
  settingsForServer(): Record<string, unknown> {
    const { settings, problems } = serverSettings((key) => this.read(key));
    const said = problems.join("\n");
    if (said !== "" && said !== this.reportedProblems) {
      void vscode.window.showWarningMessage(problems.join("; "));
    }
    this.reportedProblems = said;
    return settings;
  }

  async start(): Promise<void> {
    const launch = serverLaunch((key) => this.read(key));
    const resolved = findExecutable(launch.command);
    if (resolved === undefined) {
      this.failed(launch, new Error(`${launch.command} not found`));
      return;
    }
    const serverOptions: ServerOptions = {
      command: resolved,
      args: [...launch.args],
      transport: TransportKind.stdio,
    };
    const clientOptions: LanguageClientOptions = {
      documentSelector: [
        { scheme: "file", language: "c" },
        { scheme: "untitled", language: "c" },
      ],
      outputChannel: this.output,
      initializationOptions: this.settingsForServer(),
      middleware: {
        workspace: {
          configuration: (params, token, next) => {
            const items = params.items;
            if (items.every((item) => item.section !== SECTION)) {
              return next(params, token);
            }
            return items.map((item) => (item.section === SECTION ? this.settingsForServer() : null));
          },
        },
        handleWorkDoneProgress: (token, params, next) => {
          this.status.progress(token, params as WorkDoneValue);
          this.render();
          next(token, params);
        },
      },
    };
    const client = new LanguageClient(SECTION, "distaff", serverOptions, clientOptions);
    this.client = client;
    client.onDidChangeState((event) => {
      this.status.setServer(
        event.newState === State.Running ? "running" : event.newState === State.Starting ? "starting" : "stopped",
      );
      this.render();
    });
    this.status.setServer("starting");
    this.render();
    try {
      await client.start();
      this.status.setServer("running");
    } catch (error) {
      this.failed(launch, error);
    }
    this.render();
  }

  private failed(launch: ServerLaunch, error: unknown): void {
    const message = startFailureMessage(launch, error);
    this.output.appendLine(message);
    this.status.setServer("stopped");
    this.render();
    void vscode.window.showErrorMessage(message, "Open Settings", "Show Output").then((choice) => {
      if (choice === "Open Settings") {
        void vscode.commands.executeCommand("workbench.action.openSettings", "distaff.server");
      } else if (choice === "Show Output") {
        this.output.show(true);
      }
    });
  }

  /**
   * Tell the server the settings changed, sending the mapped section (never
   * the client-only keys, which the server would report as unknown).
   */
  pushSettings(): void {
    if (this.client !== undefined && this.client.isRunning()) {
      void this.client.sendNotification("workspace/didChangeConfiguration", {
        settings: { [SECTION]: this.settingsForServer() },
      });
    }
  }

  async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client !== undefined && client.isRunning()) {
      await client.stop();
    }
    this.status.setServer("stopped");
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  /** Run a server command at the active editor's cursor. */
  async forward(command: ForwardingCommand): Promise<unknown> {
    const editor = vscode.window.activeTextEditor;
    if (editor === undefined || editor.document.languageId !== "c") {
      void vscode.window.showInformationMessage(`distaff: ${command.title} needs an open C file.`);
      return undefined;
    }
    if (this.client === undefined || !this.client.isRunning()) {
      void vscode.window.showErrorMessage(
        "distaff: the language server is not running. Run \"distaff: Restart Server\" after fixing its settings.",
      );
      return undefined;
    }
    const position = editor.selection.active;
    const call = serverCall(command, {
      uri: editor.document.uri.toString(),
      line: position.line,
      character: position.character,
    });
    return this.client.sendRequest("workspace/executeCommand", call);
  }
}

let current: Extension | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const extension = new Extension(context);
  current = extension;
  for (const command of FORWARDING_COMMANDS) {
    context.subscriptions.push(vscode.commands.registerCommand(command.id, () => extension.forward(command)));
  }
  context.subscriptions.push(
    vscode.commands.registerCommand(CLIENT_COMMANDS.restartServer, () => extension.restart()),
    vscode.commands.registerCommand(CLIENT_COMMANDS.showOutput, () => extension.output.show(true)),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(SECTION)) {
        extension.pushSettings();
      }
      if (event.affectsConfiguration(`${SECTION}.server`)) {
        void vscode.window
          .showInformationMessage("distaff: the server settings changed.", "Restart Server")
          .then((choice) => {
            if (choice === "Restart Server") {
              void extension.restart();
            }
          });
      }
    }),
  );
  await extension.start();
}

export async function deactivate(): Promise<void> {
  const extension = current;
  current = undefined;
  if (extension !== undefined) {
    await extension.stop();
  }
}
