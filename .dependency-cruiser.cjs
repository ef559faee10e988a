// Layering rules, checked by `npm run lint:deps` (dependency-cruiser). Type-only imports count: they are
// still layering. `@/…` imports are resolved through tsconfig.json's paths. scripts/, tests/, bench/,
// sandbox/ and examples/ may import anything; they are cruised so that cycles through them are seen.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "db-not-to-app-code",
      comment: "db/ is the bottom layer: it may not import lib/, components/ or app/.",
      severity: "error",
      from: { path: "^db/" },
      to: { path: "^(lib|components|app)/" },
    },
    {
      name: "app-not-to-db",
      comment: "Pages and route handlers (app/) may not import db/: they call lib/ (lib/database.ts is the door).",
      severity: "error",
      from: { path: "^app/" },
      to: { path: "^db/" },
    },
    {
      name: "components-not-to-db",
      comment: "components/ may not import db/ (not even its types): they get data through lib/ or props.",
      severity: "error",
      from: { path: "^components/" },
      to: { path: "^db/" },
    },
    {
      name: "packages-not-to-app-code",
      comment: "A package is published on its own: it imports its own code, other packages as @agora-mcp/*, npm and Node modules only.",
      severity: "error",
      from: { path: "^packages/" },
      to: { pathNot: "^(packages|node_modules)/", dependencyTypesNot: ["core"] },
    },
    {
      name: "packages-not-into-other-packages-src",
      comment: "A package reaches another by its name (@agora-mcp/*, which resolves to that package's dist/), not into its src/.",
      severity: "error",
      from: { path: "^packages/([^/]+)/" },
      to: { path: "^packages/[^/]+/src/", pathNot: "^packages/$1/" },
    },
    {
      name: "no-circular",
      comment: "A cycle of imports (type-only ones included).",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "not-to-unresolvable",
      comment: "An import that does not resolve (a typo, or an alias the cruiser does not know, which would hide a violation).",
      severity: "error",
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    // A package's dist/ (where @agora-mcp/* resolves) shows as a dependency but is not followed.
    doNotFollow: { path: ["node_modules", "^packages/[^/]+/dist/"] },
    exclude: {
      path: "(^|/)(\\.next|\\.data|coverage|playwright-report|test-results)/|^bench/\\.tmp/|^db/migrations/|next-env\\.d\\.ts$",
    },
    // Keep type-only imports (erased at compile time, but still layering).
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".mts", ".js", ".mjs", ".cjs", ".jsx", ".json", ".d.ts"],
      mainFields: ["module", "main", "types", "typings"],
    },
    skipAnalysisNotInRules: true,
  },
};
