// The documented production start (`npm run start:prod`: migrate, then serve, in .next/standalone), read from
// package.json so the tests, the Dockerfile check and CI all use the one command the README documents.
import fs from "node:fs";
import path from "node:path";

/** `serve` with the shell's `${NAME:-default}` expanded from the environment, as the shell runs it; `serveAsWritten` as package.json writes it. */
export type ProductionStart = { dir: string; migrate: string[]; serve: string[]; serveAsWritten: string[] };

const expand = (word: string) =>
  word.replace(
    /\$\{([A-Z_][A-Z0-9_]*):-([^}]*)\}/g,
    (_, name: string, fallback: string) => process.env[name] || fallback,
  );

export function productionStart(root = process.cwd()): ProductionStart {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as {
    scripts: Record<string, string>;
  };
  const match = /^cd (\S+) && (.+?) && exec (.+)$/.exec(pkg.scripts["start:prod"] ?? "");
  if (!match) throw new Error('package.json "start:prod" is not `cd <dir> && <migrate> && exec <serve>`');
  const words = (command: string) => command.trim().split(/\s+/);
  const serveAsWritten = words(match[3]!);
  return {
    dir: path.join(root, match[1]!),
    migrate: words(match[2]!),
    serve: serveAsWritten.map(expand),
    serveAsWritten,
  };
}
