// Prints the figures docs/architecture.md records: files over 300 lines, functions over 60 lines, module-level tables
// typed Record<string, string>, the types that describe a listing (and, for the older figure, the types whose name
// says Listing), lib's folder pairs that import each other, lib folders in no layer, exports only tests name and
// functions nothing names, and what comments cite by number or name that does not exist. Run: npm run architecture:numbers (from any checkout: it reads the tree it stands in).
// Tests, fixtures and generated files are left out.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import ts from "typescript";
import { commentFindings } from "./support/comment-facts";
import { unnamedExports } from "./support/export-facts";
import { listingTypes as describeListingTypes } from "./support/listing-types";

const ROOTS = [
  "app",
  "components",
  "lib",
  "db",
  "server",
  "packages/protocol/src",
  "packages/client/src",
  "packages/server/src",
  "proxy.ts",
  "instrumentation.ts",
];
const SKIP = /(^|\/)(node_modules|dist|migrations|\.next)(\/|$)/;

function sourceFiles(): string[] {
  const out: string[] = [];
  const walk = (p: string) => {
    if (!fs.existsSync(p) || SKIP.test(p)) return;
    if (fs.statSync(p).isDirectory()) for (const e of fs.readdirSync(p)) walk(path.join(p, e));
    else if (/\.(ts|tsx|mjs)$/.test(p) && !/\.d\.ts$/.test(p)) out.push(p);
  };
  ROOTS.forEach(walk);
  return out.sort();
}

const files = sourceFiles();
const long: string[] = [];
const longFunctions: string[] = [];
const listingTypes: string[] = [];
const stringMaps: string[] = [];
for (const file of files) {
  const text = fs.readFileSync(file, "utf8");
  const lines = text.split("\n").length;
  if (lines > 300) long.push(`${file} ${lines}`);
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const lineOf = (pos: number) => source.getLineAndCharacterOfPosition(pos).line;
  const visit = (node: ts.Node) => {
    if (
      ts.isFunctionDeclaration(node) ||
      ts.isMethodDeclaration(node) ||
      ts.isArrowFunction(node) ||
      ts.isFunctionExpression(node)
    ) {
      const span = lineOf(node.getEnd()) - lineOf(node.getStart()) + 1;
      if (span > 60) {
        const named =
          node.name?.getText() ?? (ts.isVariableDeclaration(node.parent) ? node.parent.name.getText() : "(anonymous)");
        longFunctions.push(`${file}:${lineOf(node.getStart()) + 1} ${named} ${span}`);
      }
    }
    if ((ts.isTypeAliasDeclaration(node) || ts.isInterfaceDeclaration(node)) && /Listing/.test(node.name.text))
      listingTypes.push(`${file} ${node.name.text}`);
    // Module-level tables only: an object built up at run time (headers, an env block) is no vocabulary.
    if (
      ts.isVariableDeclaration(node) &&
      node.parent.parent.parent === source &&
      node.type?.getText().replace(/\s/g, "") === "Record<string,string>" &&
      node.initializer &&
      ts.isObjectLiteralExpression(node.initializer)
    ) {
      stringMaps.push(`${file}:${lineOf(node.getStart()) + 1} ${node.name.getText()}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}

// lib's folders (and root files) that import each other (a pair counted once), from dependency-cruiser's own reading of the imports.
const cruised = JSON.parse(
  execFileSync("npx", ["depcruise", "--config", ".dependency-cruiser.cjs", "--output-type", "json", "lib"], {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  }),
) as {
  modules: { source: string; dependencies: { resolved: string }[] }[];
};
const folder = (p: string) => /^lib\/([^/]+)(\/|$)/.exec(p)?.[1];
const arrows = new Set<string>();
for (const m of cruised.modules)
  for (const d of m.dependencies) {
    const [a, b] = [folder(m.source), folder(d.resolved)];
    if (a && b && a !== b) arrows.add(`${a} -> ${b}`);
  }
const mutual = [...arrows].filter(
  (k) => k.split(" -> ")[0]! < k.split(" -> ")[1]! && arrows.has(k.split(" -> ").reverse().join(" -> ")),
);

const section = (title: string, rows: string[]) =>
  console.log(`${title}: ${rows.length}\n${rows.map((r) => `  ${r}`).join("\n")}`);
section("files over 300 lines", long);
section("functions over 60 lines", longFunctions);
section("types named *Listing* (by name only: some are rows of other tables, such as ListingProbe)", listingTypes);
const described = describeListingTypes(
  files.map((file) => ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true)),
);
const kinds = ["row", "derived", "hand-written", "wire"] as const;
const counts = kinds.map((k) => `${described.filter((t) => t.kind === k).length} ${k}`).join(", ");
console.log(
  `types that describe a listing: ${described.length} (${counts})\n` +
    "  row: the schema's row of listings (typeof listings.$inferSelect / $inferInsert); derived: built from a listing type\n" +
    "  (Pick, Omit, an intersection or alias of one); hand-written: an object type that names 3 or more of the listings\n" +
    "  table's columns itself, one of them a listing's own (slug, serverUrl, categories, upstream…); wire: such a type\n" +
    "  that another party sends or receives (a presenter's answer, the protocol's, a form's input, an upstream entry)",
);
for (const t of described) console.log(`  ${t.kind.padEnd(12)} ${t.file} ${t.name}${t.note ? ` (${t.note})` : ""}`);
section(
  "module-level tables typed Record<string, string> (a closed set of Agora's own is typed by its values instead; these are keyed by outside text)",
  stringMaps,
);
section(
  "lib folder pairs importing each other",
  mutual.map((k) => k.replace(" -> ", " <-> ")),
);
// lib's folders that stand in no layer of .dependency-cruiser.cjs (whose LIB_LAYERS it exposes as libLayers).
const { libLayers } = createRequire(import.meta.url)(path.resolve(".dependency-cruiser.cjs")) as {
  libLayers: Record<string, string[]>;
};
const layered = new Set(Object.values(libLayers).flat());
const libFolders = fs
  .readdirSync("lib", { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name);
section(`lib folders in no layer (of ${libFolders.length})`, libFolders.filter((f) => !layered.has(f)).sort());

// Exports only tests name, and functions nothing names, by a word count: a name counts as used by a file that holds it
// as a word (so a name shared with another thing is counted as used: the figures err low). Code outside the tests is
// the source above plus scripts, the sandbox, examples, benchmarks, MDX content and the root files; Next's own
// export names in app/ (default, GET, metadata …) and instrumentation's hooks are left out.
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
]);
const walkAll = (p: string, out: string[], skip: RegExp) => {
  if (!fs.existsSync(p) || skip.test(p)) return;
  if (fs.statSync(p).isDirectory()) for (const e of fs.readdirSync(p)) walkAll(path.join(p, e), out, skip);
  else if (/\.(ts|tsx|mjs|js|cjs|mdx)$/.test(p) && !/\.d\.ts$/.test(p)) out.push(p);
};
const wordsOf = (file: string) => new Set(fs.readFileSync(file, "utf8").match(/[A-Za-z_$][\w$]*/g) ?? []);
const outsideFiles: string[] = [];
for (const root of [...ROOTS, "scripts", "sandbox", "examples", "bench", "content"])
  walkAll(root, outsideFiles, /(^|\/)(node_modules|dist|\.next|test|tests)(\/|$)/);
for (const entry of fs.readdirSync(".")) if (/\.(ts|tsx|mjs|js|cjs)$/.test(entry)) outsideFiles.push(entry);
const outsideWords = new Map([...new Set(outsideFiles)].map((f) => [f, wordsOf(f)]));
const testFiles: string[] = [];
for (const root of ["tests", "packages/protocol/test", "packages/client/test", "packages/server/test"])
  walkAll(root, testFiles, /(^|\/)(node_modules|dist)(\/|$)/);
const testWords = testFiles.map(wordsOf);
const usedOutside = (name: string, file: string) =>
  [...outsideWords].some(([f, words]) => f !== file && words.has(name));
const testOnly: string[] = [];
const uncalled: string[] = [];
for (const file of files) {
  const source = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const own = (fs.readFileSync(file, "utf8").match(/[A-Za-z_$][\w$]*/g) ?? []).reduce(
    (m, w) => m.set(w, (m.get(w) ?? 0) + 1),
    new Map<string, number>(),
  );
  const exported: string[] = [];
  const functions: string[] = [];
  source.forEachChild((node) => {
    const modifiers = ts.canHaveModifiers(node) ? (ts.getModifiers(node) ?? []) : [];
    const isExported = modifiers.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    const isDefault = modifiers.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword);
    const named =
      (ts.isFunctionDeclaration(node) ||
        ts.isClassDeclaration(node) ||
        ts.isTypeAliasDeclaration(node) ||
        ts.isInterfaceDeclaration(node) ||
        ts.isEnumDeclaration(node)) &&
      node.name
        ? [node.name.text]
        : [];
    const variables = ts.isVariableStatement(node)
      ? node.declarationList.declarations.filter((d) => ts.isIdentifier(d.name))
      : [];
    if (isExported && !isDefault) exported.push(...named, ...variables.map((d) => d.name.getText()));
    if (
      ts.isExportDeclaration(node) &&
      !node.moduleSpecifier &&
      node.exportClause &&
      ts.isNamedExports(node.exportClause)
    )
      exported.push(...node.exportClause.elements.map((e) => e.name.text));
    if (ts.isFunctionDeclaration(node) && node.name && !isDefault) functions.push(node.name.text);
    for (const d of variables)
      if (d.initializer && (ts.isArrowFunction(d.initializer) || ts.isFunctionExpression(d.initializer)))
        functions.push(d.name.getText());
  });
  const nextFile = file.startsWith("app/") || file === "instrumentation.ts";
  for (const name of new Set(exported)) {
    if (nextFile && NEXT_NAMES.has(name)) continue;
    if (!usedOutside(name, file) && testWords.some((words) => words.has(name))) testOnly.push(`${file} ${name}`);
  }
  for (const name of new Set(functions)) {
    if (nextFile && NEXT_NAMES.has(name)) continue;
    if ((own.get(name) ?? 0) <= 1 && !usedOutside(name, file) && !testWords.some((words) => words.has(name)))
      uncalled.push(`${file} ${name}`);
  }
}
section("exports only tests name", testOnly);
section("exports no other file names (npm run lint:exports)", unnamedExports());
// Comments that cite the tracker or the spec by number, and files comments name that do not exist (npm run lint:comments).
const commentsFound = commentFindings();
section(
  "issue or spec numbers in comments",
  commentsFound.filter((f) => f.kind === "history").map((f) => `${f.file}:${f.line}`),
);
section(
  "comment paths that do not exist",
  commentsFound.filter((f) => f.kind === "missing-path").map((f) => `${f.file}:${f.line} ${f.text}`),
);
section("functions nothing names", uncalled);
