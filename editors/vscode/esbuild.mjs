// Builds the extension into one file (dist/extension.js) with its dependencies
// bundled, so the .vsix ships no node_modules. With --test, compiles src/ and
// test/ file by file into out/ instead, so the tests can substitute the
// `vscode` and `vscode-languageclient/node` modules.
import * as esbuild from "esbuild";
import * as fs from "node:fs";

const forTests = process.argv.includes("--test");

if (forTests) {
  fs.rmSync("out", { recursive: true, force: true });
  const entries = ["src", "test", "test/integration"].flatMap((dir) =>
    fs.readdirSync(dir).filter((f) => f.endsWith(".ts")).map((f) => `${dir}/${f}`),
  );
  await esbuild.build({
    entryPoints: entries,
    outdir: "out",
    outbase: ".",
    bundle: false,
    platform: "node",
    format: "cjs",
    target: "node18",
    sourcemap: "inline",
    logLevel: "warning",
  });
} else {
  await esbuild.build({
    entryPoints: ["src/extension.ts"],
    outfile: "dist/extension.js",
    bundle: true,
    external: ["vscode"],
    platform: "node",
    format: "cjs",
    // VS Code 1.82 runs extensions on Node 18.
    target: "node18",
    minify: true,
    sourcemap: false,
    logLevel: "warning",
  });
}
