// Exports no other file names: an `export` nothing imports widens a module's surface for no reader, and hides dead
// code from the linter (an unexported function nothing calls is flagged; an exported one is not). Counted by word:
// a name another file holds as a word counts as used (tests, scripts, MDX content and configs included), so the
// figure errs low. Shared by `npm run lint:exports` and `npm run architecture:numbers`.
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

/** The site's own code. The packages' exports are their published API, for other people's code to name. */
const CHECKED = ["app", "components", "lib", "db", "server", "proxy.ts", "instrumentation.ts"];
/** Where a name may be used: all the code, its tests, scripts and content. */
const READERS = [...CHECKED, "packages", "scripts", "sandbox", "examples", "bench", "content", "tests"];
const SKIP = /(^|\/)(node_modules|dist|\.next|migrations)(\/|$)/;
// drizzle-kit reads every export of the schema (a table left unexported would be dropped by the next migration).
const EXEMPT_FILES = new Set(["db/schema.ts"]);
// Next reads these by name from app/ files and the root entries.
const NEXT_NAMES = new Set([
  "default",
  "GET",
  "POST",
  "PUT",
  "PATCH",
  "DELETE",
  "HEAD",
  "OPTIONS",
  "metadata",
  "generateMetadata",
  "generateStaticParams",
  "dynamic",
  "dynamicParams",
  "revalidate",
  "runtime",
  "viewport",
  "alt",
  "size",
  "contentType",
  "register",
  "onRequestError",
  "proxy",
  "config",
]);

function walk(p: string, out: string[]) {
  if (!fs.existsSync(p) || SKIP.test(p)) return;
  if (fs.statSync(p).isDirectory()) for (const e of fs.readdirSync(p)) walk(path.join(p, e), out);
  else if (/\.(ts|tsx|mjs|js|cjs|mdx)$/.test(p) && !/\.d\.m?ts$/.test(p)) out.push(p);
}

/** `file name` for each export of the site's code that no other file names. */
export function unnamedExports(): string[] {
  const readers: string[] = [];
  READERS.forEach((root) => walk(root, readers));
  for (const entry of fs.readdirSync(".")) if (/\.(ts|tsx|mjs|js|cjs)$/.test(entry)) readers.push(entry);
  const words = new Map(readers.map((f) => [f, new Set(fs.readFileSync(f, "utf8").match(/[A-Za-z_$][\w$]*/g) ?? [])]));
  const checked: string[] = [];
  CHECKED.forEach((root) => walk(root, checked));
  const found: string[] = [];
  for (const file of checked.filter((f) => !f.endsWith(".mdx") && !EXEMPT_FILES.has(f)).sort()) {
    const source = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
    const nextFile = file.startsWith("app/") || !file.includes("/");
    source.forEachChild((node) => {
      const modifiers = ts.canHaveModifiers(node) ? (ts.getModifiers(node) ?? []) : [];
      if (
        !modifiers.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) ||
        modifiers.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword)
      )
        return;
      const names: string[] = [];
      if (
        (ts.isFunctionDeclaration(node) ||
          ts.isClassDeclaration(node) ||
          ts.isTypeAliasDeclaration(node) ||
          ts.isInterfaceDeclaration(node) ||
          ts.isEnumDeclaration(node)) &&
        node.name
      )
        names.push(node.name.text);
      if (ts.isVariableStatement(node))
        for (const d of node.declarationList.declarations) if (ts.isIdentifier(d.name)) names.push(d.name.text);
      for (const name of names) {
        if (nextFile && NEXT_NAMES.has(name)) continue;
        if (![...words].some(([f, w]) => f !== file && w.has(name))) found.push(`${file} ${name}`);
      }
    });
  }
  return found;
}
