/**
 * The palette commands and what each one asks of the server.
 *
 * The server registers its own commands (`distaff.checkFile`, ...) through
 * `executeCommandProvider`; the language client then owns those ids in VS Code
 * (code actions and lenses run them directly). The palette therefore uses ids
 * of its own (`distaff.editor.*`) which send `workspace/executeCommand` with
 * the server's id and the cursor's position. Pure: no `vscode` import.
 */

/** A position in a document, as the server's commands take it (0-based, LSP). */
export interface CursorArgs {
  readonly uri: string;
  readonly line: number;
  readonly character: number;
}

export interface ServerCommandCall {
  readonly command: string;
  readonly arguments: unknown[];
}

/** A palette command that forwards to a server command. */
export interface ForwardingCommand {
  readonly id: string;
  readonly title: string;
  readonly serverCommand: string;
  /** Whether the server needs the cursor's position or only the document. */
  readonly needsPosition: boolean;
}

export const FORWARDING_COMMANDS: readonly ForwardingCommand[] = [
  { id: "distaff.editor.checkFile", title: "Check File", serverCommand: "distaff.checkFile", needsPosition: false },
  { id: "distaff.editor.checkFromHere", title: "Check From Here", serverCommand: "distaff.checkFromHere", needsPosition: true },
  { id: "distaff.editor.pinThread", title: "Pin This Thread Here", serverCommand: "distaff.pinThread", needsPosition: true },
  { id: "distaff.editor.clearContext", title: "Clear Context Results", serverCommand: "distaff.clearContext", needsPosition: false },
  { id: "distaff.editor.writeReproducer", title: "Write a Reproducer", serverCommand: "distaff.writeReproducer", needsPosition: true },
];

/** Palette commands handled by the extension itself. */
export const CLIENT_COMMANDS = {
  restartServer: "distaff.restartServer",
  showOutput: "distaff.showOutput",
} as const;

/** The `workspace/executeCommand` parameters for a palette command at a cursor. */
export function serverCall(command: ForwardingCommand, cursor: CursorArgs): ServerCommandCall {
  const args = command.needsPosition
    ? { uri: cursor.uri, line: cursor.line, character: cursor.character }
    : { uri: cursor.uri };
  return { command: command.serverCommand, arguments: [args] };
}
