/**
 * What the status bar item says: the server's state and the checks running.
 *
 * Fed by the server's work-done progress (`$/progress` begin/report/end, one
 * token per check) and by the client's state changes. Pure: the extension
 * turns a `StatusView` into a `vscode.StatusBarItem`.
 */

export type ServerState = "starting" | "running" | "stopped";

/** One `$/progress` value of the work-done kind. */
export interface WorkDoneValue {
  readonly kind: "begin" | "report" | "end";
  readonly title?: string;
  readonly message?: string;
  readonly percentage?: number;
}

interface CheckProgress {
  title: string;
  message: string;
  percentage: number | undefined;
}

export interface StatusView {
  readonly text: string;
  readonly tooltip: string;
  /** Draw attention (server stopped). */
  readonly error: boolean;
}

export class CheckStatus {
  private server: ServerState = "starting";
  private readonly checks = new Map<string, CheckProgress>();
  private lastResult = "";

  setServer(state: ServerState): void {
    this.server = state;
    if (state !== "running") {
      this.checks.clear();
    }
  }

  /** Apply one progress value of the check identified by `token`. */
  progress(token: string | number, value: WorkDoneValue): void {
    const key = String(token);
    if (value.kind === "begin") {
      this.checks.set(key, {
        title: value.title ?? "checking",
        message: value.message ?? "",
        percentage: value.percentage,
      });
      return;
    }
    const check = this.checks.get(key);
    if (value.kind === "report") {
      if (check !== undefined) {
        check.message = value.message ?? check.message;
        check.percentage = value.percentage ?? check.percentage;
      }
      return;
    }
    this.checks.delete(key);
    if (value.message !== undefined && value.message !== "") {
      this.lastResult = value.message;
    }
  }

  view(): StatusView {
    if (this.server === "stopped") {
      return {
        text: "$(error) distaff",
        tooltip: "distaff: the language server is not running. Click to see its output.",
        error: true,
      };
    }
    if (this.server === "starting") {
      return { text: "$(loading~spin) distaff", tooltip: "distaff: starting the language server", error: false };
    }
    const running = [...this.checks.values()];
    if (running.length === 0) {
      return {
        text: this.lastResult === "" ? "$(check) distaff" : `$(check) distaff: ${this.lastResult}`,
        tooltip: this.lastResult === "" ? "distaff: idle" : `distaff: last check: ${this.lastResult}`,
        error: false,
      };
    }
    const first = running[0];
    const percent = first.percentage === undefined ? "" : ` ${Math.round(first.percentage)}%`;
    const more = running.length > 1 ? ` (+${running.length - 1} more)` : "";
    const detail = first.message === "" ? "" : `: ${first.message}`;
    return {
      text: `$(loading~spin) distaff${percent}${more}`,
      tooltip: running.map((c) => `${c.title}${c.message === "" ? "" : ": " + c.message}`).join("\n") || `${first.title}${detail}`,
      error: false,
    };
  }
}
