// Which declared types describe a listing, and how (npm run architecture:numbers). Read from the source alone: the
// listings table's columns from db/schema.ts, then every type alias and interface, by the shape it is written in.
//   row           typeof listings.$inferSelect / $inferInsert
//   derived       built from a listing type: Pick/Omit/Partial… of one, an intersection or union with one, an alias
//                 of one, an interface extending one
//   hand-written  an object type naming 3 or more of the table's columns itself (camelCase or the SQL's snake_case),
//                 at least one a listing's own (not id, name, description, price, status, verified, source, dates)
//                 (a zod schema's keys count for `z.infer<typeof schema>`)
//   wire          a hand-written one that another party sends or receives: a presenter's answer, the protocol's
//                 registry types, a form's input, an upstream registry's entry (written out on purpose: a column's
//                 rename must not change them); the agent client and provider kit are left out (they see no listing)
// A type holding a listing as one property (`{ listing: ListingRow; … }`) contains one and is not counted.
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

export type ListingTypeKind = "row" | "derived" | "hand-written" | "wire";
export type ListingType = { file: string; name: string; kind: ListingTypeKind; note?: string };

const GENERIC = new Set([
  "id",
  "name",
  "description",
  "price",
  "status",
  "verified",
  "source",
  "revision",
  "createdAt",
  "updatedAt",
  "created_at",
  "updated_at",
]);
const WRAPPERS = new Set(["Pick", "Omit", "Partial", "Required", "Readonly", "NonNullable"]);
// Shapes another party sends or receives: a surface's answer, the registry's wire types, a form's input, an upstream
// registry's entries. They are written out on purpose: they must not move when a column does.
const WIRE = /^(lib\/listings\/presenters\/|lib\/validations\/|lib\/ingest\/|packages\/protocol\/)/;
// The agent client and the provider kit never see Agora's listings (the client reads the protocol's wire types).
const ELSEWHERE = /^packages\/(client|server)\//;

type Declaration = {
  file: string;
  name: string;
  node: ts.TypeAliasDeclaration | ts.InterfaceDeclaration;
  source: ts.SourceFile;
};

/** The listings table's column names, as the code spells them and as SQL does. */
function listingColumns(files: ts.SourceFile[]): Set<string> {
  const schema = files.find((f) => f.fileName === "db/schema.ts");
  const columns = new Set<string>();
  const visit = (node: ts.Node) => {
    if (
      ts.isCallExpression(node) &&
      node.expression.getText(schema) === "pgTable" &&
      ts.isStringLiteral(node.arguments[0]!) &&
      node.arguments[0].text === "listings"
    ) {
      const shape = node.arguments[1];
      if (shape && ts.isObjectLiteralExpression(shape)) {
        for (const p of shape.properties) {
          if (!ts.isPropertyAssignment(p)) continue;
          columns.add(p.name.getText(schema));
          let call: ts.Expression = p.initializer;
          while (ts.isCallExpression(call) && ts.isPropertyAccessExpression(call.expression))
            call = call.expression.expression;
          if (ts.isCallExpression(call) && call.arguments[0] && ts.isStringLiteral(call.arguments[0]))
            columns.add(call.arguments[0].text);
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  if (schema) visit(schema);
  if (columns.size === 0) throw new Error("db/schema.ts: the listings table was not found");
  return columns;
}

function declarations(files: ts.SourceFile[]): Declaration[] {
  const out: Declaration[] = [];
  for (const source of files) {
    const visit = (node: ts.Node) => {
      if (ts.isTypeAliasDeclaration(node) || ts.isInterfaceDeclaration(node))
        out.push({ file: source.fileName, name: node.name.text, node, source });
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return out;
}

/** The file an import specifier names (`@/…` or relative), or null (a package, or not among the files read). */
function moduleFile(from: string, specifier: string, known: Map<string, ts.SourceFile>): string | null {
  const bare = specifier.startsWith("@/")
    ? specifier.slice(2)
    : specifier.startsWith(".")
      ? path.join(path.dirname(from), specifier)
      : null;
  if (bare === null) return null;
  const stem = bare.replace(/\.(m?js)$/, "");
  return (
    [bare, `${stem}.ts`, `${stem}.tsx`, `${stem}.mts`, `${stem}/index.ts`].find(
      (f) => known.has(f) && fs.existsSync(f),
    ) ?? null
  );
}

/**
 * The declaration a type name in a file stands for: declared there, imported, or re-exported (followed through
 * `import … from`, `export … from` and `export type { … }` of an import), so two types of one name stay apart.
 */
function resolver(all: Declaration[], files: ts.SourceFile[]) {
  const known = new Map(files.map((f) => [f.fileName, f]));
  const declared = new Map(all.map((d) => [`${d.file}#${d.name}`, d]));
  const resolve = (file: string, name: string, depth = 0): Declaration | null => {
    const own = declared.get(`${file}#${name}`);
    if (own || depth > 8) return own ?? null;
    const source = known.get(file);
    if (!source) return null;
    for (const statement of source.statements) {
      if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
        const bindings = statement.importClause?.namedBindings;
        if (!bindings || !ts.isNamedImports(bindings)) continue;
        const binding = bindings.elements.find((e) => e.name.text === name);
        const target = binding && moduleFile(file, statement.moduleSpecifier.text, known);
        if (binding && target) return resolve(target, (binding.propertyName ?? binding.name).text, depth + 1);
      }
      if (ts.isExportDeclaration(statement) && statement.exportClause && ts.isNamedExports(statement.exportClause)) {
        const binding = statement.exportClause.elements.find((e) => e.name.text === name);
        if (!binding) continue;
        const original = (binding.propertyName ?? binding.name).text;
        if (statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)) {
          const target = moduleFile(file, statement.moduleSpecifier.text, known);
          if (target) return resolve(target, original, depth + 1);
        } else if (original !== name) return resolve(file, original, depth + 1);
      }
    }
    return null;
  };
  return resolve;
}

/** The names of the types a type is built from at its top (not those of its properties). */
function spine(node: ts.TypeNode, source: ts.SourceFile): string[] {
  if (ts.isParenthesizedTypeNode(node)) return spine(node.type, source);
  if (ts.isIntersectionTypeNode(node) || ts.isUnionTypeNode(node)) return node.types.flatMap((t) => spine(t, source));
  if (ts.isTypeReferenceNode(node)) {
    const name = node.typeName.getText(source);
    if (WRAPPERS.has(name) && node.typeArguments?.[0]) return spine(node.typeArguments[0], source);
    return [name.split(".").pop()!];
  }
  return [];
}

/** The keys of the `z.object({…})` a same-file constant is built on (for `z.infer<typeof thatConstant>`). */
function zodKeys(constant: string, source: ts.SourceFile): string[] {
  let keys: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isVariableDeclaration(node) && node.name.getText(source) === constant && node.initializer) {
      const find = (n: ts.Node) => {
        if (
          keys.length === 0 &&
          ts.isCallExpression(n) &&
          n.expression.getText(source) === "z.object" &&
          n.arguments[0] &&
          ts.isObjectLiteralExpression(n.arguments[0])
        ) {
          keys = n.arguments[0].properties.flatMap((p) =>
            p.name ? [p.name.getText(source).replace(/^["']|["']$/g, "")] : [],
          );
        }
        ts.forEachChild(n, find);
      };
      find(node.initializer);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return keys;
}

/** The property names an object type writes out itself, at its top (a zod schema's keys for `z.infer<typeof s>`). */
function ownProperties(node: ts.Node, source: ts.SourceFile): string[] {
  if (ts.isTypeAliasDeclaration(node)) return ownProperties(node.type, source);
  if (ts.isTypeReferenceNode(node) && /^z\.(infer|output|input)$/.test(node.typeName.getText(source))) {
    const argument = node.typeArguments?.[0];
    if (argument && ts.isTypeQueryNode(argument)) return zodKeys(argument.exprName.getText(source), source);
  }
  if (ts.isParenthesizedTypeNode(node)) return ownProperties(node.type, source);
  if (ts.isIntersectionTypeNode(node)) return node.types.flatMap((t) => ownProperties(t, source));
  if (ts.isTypeLiteralNode(node) || ts.isInterfaceDeclaration(node)) {
    return node.members.flatMap((m) =>
      ts.isPropertySignature(m) && m.name ? [m.name.getText(source).replace(/^["']|["']$/g, "")] : [],
    );
  }
  return [];
}

function isRow(d: Declaration): boolean {
  return (
    ts.isTypeAliasDeclaration(d.node) &&
    /^typeof listings\.\$infer(Select|Insert)$/.test(d.node.type.getText(d.source).replace(/\s+/g, " "))
  );
}

export function listingTypes(files: ts.SourceFile[]): ListingType[] {
  const columns = listingColumns(files);
  const all = declarations(files);
  const found = new Map<Declaration, ListingType>();
  for (const d of all) if (isRow(d)) found.set(d, { file: d.file, name: d.name, kind: "row" });
  const resolve = resolver(all, files);
  // Derived: to a fixed point, since a derived type may be built from another derived one.
  const derive = () => {
    for (let grew = true; grew;) {
      grew = false;
      for (const d of all) {
        if (found.has(d)) continue;
        const bases = ts.isTypeAliasDeclaration(d.node)
          ? spine(d.node.type, d.source)
          : (d.node.heritageClauses ?? []).flatMap((h) => h.types.map((t) => t.expression.getText(d.source)));
        const base = bases.map((b) => resolve(d.file, b)).find((b) => b && found.has(b));
        if (base) {
          found.set(d, {
            file: d.file,
            name: d.name,
            kind: "derived",
            note: `from ${base.name}${base.file === d.file ? "" : ` (${base.file})`}`,
          });
          grew = true;
        }
      }
    }
  };
  derive();
  for (const d of all) {
    if (found.has(d) || ELSEWHERE.test(d.file)) continue;
    const named = ownProperties(d.node, d.source).filter((p) => columns.has(p));
    if (named.length >= 3 && named.some((p) => !GENERIC.has(p))) {
      found.set(d, {
        file: d.file,
        name: d.name,
        kind: WIRE.test(d.file) ? "wire" : "hand-written",
        note: named.join(", "),
      });
    }
  }
  // Then those built on a hand-written or wire one (derived too, though not from the row: the note names the base).
  derive();
  return [...found.values()].sort(
    (a, b) => a.kind.localeCompare(b.kind) || a.file.localeCompare(b.file) || a.name.localeCompare(b.name),
  );
}
