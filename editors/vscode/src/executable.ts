/**
 * Finding the server's executable before starting it, so that a missing
 * install is reported with its fix instead of as a spawn error.
 */
import * as fs from "node:fs";
import * as path from "node:path";

function isExecutableFile(file: string): boolean {
  try {
    const stat = fs.statSync(file);
    if (!stat.isFile()) {
      return false;
    }
    if (process.platform === "win32") {
      return true;
    }
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The full path `command` runs as: itself when it names a path (absolute or
 * with a separator), else the first match on `searchPath` (PATH by default,
 * with PATHEXT's extensions on Windows). Undefined when nothing matches.
 */
export function findExecutable(
  command: string,
  searchPath: string = process.env.PATH ?? "",
): string | undefined {
  if (command.includes("/") || command.includes(path.sep)) {
    return isExecutableFile(command) ? path.resolve(command) : undefined;
  }
  const extensions =
    process.platform === "win32" ? ["", ...(process.env.PATHEXT ?? ".EXE;.CMD;.BAT").split(";")] : [""];
  for (const dir of searchPath.split(path.delimiter)) {
    if (dir === "") {
      continue;
    }
    for (const ext of extensions) {
      const candidate = path.join(dir, command + ext);
      if (isExecutableFile(candidate)) {
        return candidate;
      }
    }
  }
  return undefined;
}
