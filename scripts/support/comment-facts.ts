// What the comments of the code say about history and about other files: a comment that cites an issue number or a
// section number of the product spec points into a tracker or a document a reader of the code may not have (the why
// belongs in words), and a comment that names a file that moved or no longer exists sends a reader nowhere. Shared by
// `npm run lint:comments` (which fails on any) and `npm run architecture:numbers` (which counts them).
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

/** Every folder of code, tests included, and the root's config and entry files. */
export const COMMENT_ROOTS = [
  "app",
  "components",
  "lib",
  "db",
  "server",
  "packages",
  "tests",
  "sandbox",
  "bench",
  "examples",
  "scripts",
  "proxy.ts",
  "instrumentation.ts",
  "next.config.mjs",
  "playwright.config.ts",
  "vitest.config.ts",
  "eslint.config.mjs",
  ".dependency-cruiser.cjs",
];
const SKIP = /(^|\/)(node_modules|dist|\.next|migrations|fixtures|test-results)(\/|$)/;

export type CommentFinding = { file: string; line: number; kind: "history" | "missing-path"; text: string };

// The tracker's numbers ("issue" and a number, or a hash and a number) and the spec's section numbers (a section sign
// after "spec", or alone). Standards keep their own section signs (RFC 6749 §4.1.2.1, EIP-712 §…).
const HISTORY = [
  /\bissues?\s+#?\d+/i,
  /(^|[\s(])#\d{1,3}\b(?![\w-])/,
  /\bspec(?:'s)?\b[^.\n]{0,40}§\s?\d/i,
  /(?<!(?:RFC|EIP|ERC|BIP|CAIP|ISO)[\s-]?\d*\s?)(^|[\s(])§\s?\d/,
];

// A path a comment names: a project folder's name, then at least one segment. Globs, templates and placeholders
// (`*`, `${`, `<name>`, `[slug]` routes are real folders and kept) are not checked.
const PATH =
  /(?<![\w./@-])((?:app|components|lib|db|server|scripts|tests|packages|sandbox|bench|examples|docs|content|public|\.ci)\/[\w./()[\]@-]*[\w\])])/g;
const ROOT_FILE =
  /(?<![\w./@-])((?:proxy|instrumentation|next\.config|playwright\.config|vitest\.config)\.(?:ts|mjs|js))\b/g;
const RESOLVE_EXTENSIONS = ["", ".ts", ".tsx", ".mjs", ".js", ".cjs", ".json", ".md", ".mdx", ".sql", ".sol"];

function walk(p: string, out: string[]) {
  if (!fs.existsSync(p) || SKIP.test(p)) return;
  if (fs.statSync(p).isDirectory()) for (const e of fs.readdirSync(p)) walk(path.join(p, e), out);
  else if (/\.(ts|tsx|mjs|js|cjs|sol)$/.test(p) && !/\.d\.(m?ts)$/.test(p)) out.push(p);
}

/** The comments of one file, each with the line it starts on. Every comment is the leading trivia of some token, so
 * the tokens of the parsed tree are walked (a bare scanner takes a regex literal for a division and loses its place). */
export function commentsOf(file: string, text: string): { line: number; text: string }[] {
  const source = ts.createSourceFile(
    file,
    text,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const found = new Map<number, { line: number; text: string }>();
  const take = (ranges: ts.CommentRange[] | undefined) => {
    for (const r of ranges ?? [])
      if (!found.has(r.pos))
        found.set(r.pos, {
          line: source.getLineAndCharacterOfPosition(r.pos).line + 1,
          text: text.slice(r.pos, r.end),
        });
  };
  const visit = (node: ts.Node) => {
    // A token's trivia: the comments on lines before it (leading) and on its own line after it (trailing). JSDoc
    // nodes are read from those comments, not from the code, and are not walked.
    if (ts.isToken(node)) {
      if (node.kind !== ts.SyntaxKind.JsxText) take(ts.getLeadingCommentRanges(text, node.pos));
      take(ts.getTrailingCommentRanges(text, node.end));
      return;
    }
    for (const child of node.getChildren(source)) if (!ts.isJSDoc(child)) visit(child);
  };
  visit(source);
  visit(source.endOfFileToken);
  return [...found.entries()].sort(([a], [b]) => a - b).map(([, c]) => c);
}

function pathExists(named: string): boolean {
  let clean = named.replace(/\.+$/, "");
  // A closing parenthesis of the sentence, not of a route group such as app/(marketing).
  while (clean.endsWith(")") && clean.split("(").length < clean.split(")").length) clean = clean.slice(0, -1);
  clean = clean.replace(/\.+$/, "").replace(/\/$/, "");
  if (/[*<>{}$]/.test(clean) || clean.includes("...")) return true;
  // Two segments and no extension is as likely a method name (MCP's server/discover) as a folder: not checked.
  if (!/\.\w+$/.test(clean) && clean.split("/").length < 3 && !named.endsWith("/")) return true;
  // Generated and local output (git-ignored) exists only after a run.
  if (/(^|\/)\.(out|data)(\/|$)/.test(clean)) return true;
  return RESOLVE_EXTENSIONS.some((ext) => fs.existsSync(clean + ext)) || fs.existsSync(`${clean}/index.ts`);
}

/** Every history reference and every missing path in the comments under the roots (paths from the project root). */
export function commentFindings(roots: string[] = COMMENT_ROOTS): CommentFinding[] {
  const files: string[] = [];
  for (const root of roots) walk(root, files);
  const findings: CommentFinding[] = [];
  for (const file of files.sort()) {
    for (const comment of commentsOf(file, fs.readFileSync(file, "utf8"))) {
      comment.text.split("\n").forEach((line, i) => {
        const at = comment.line + i;
        if (HISTORY.some((pattern) => pattern.test(line)))
          findings.push({ file, line: at, kind: "history", text: line.trim() });
        for (const match of [...line.matchAll(PATH), ...line.matchAll(ROOT_FILE)]) {
          if (!pathExists(match[1]!)) findings.push({ file, line: at, kind: "missing-path", text: match[1]! });
        }
      });
    }
  }
  return findings;
}
