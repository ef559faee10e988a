// Layering rules, checked by `npm run lint:deps` (dependency-cruiser). Type-only imports count: they are
// still layering. `@/…` imports are resolved through tsconfig.json's paths. scripts/, tests/, bench/,
// sandbox/ and examples/ may import anything; they are cruised so that cycles through them are seen.

// lib's folders by layer, lowest first. Every folder of lib/ is in exactly one (the rule lib-folder-in-a-layer fails
// on one that is not; `npm run architecture:numbers` counts them):
//   core      lib/*.ts and the folders below: settings, caches, the chain, safe fetch, the probe, the HTTP shell
//   sales     the on-chain sales index (what listings show of it)
//   listings  the listing's one home: rows, view, presenters, search, checks, submission
//   features  claims imports no other feature; the rest may import claims
//   entries   with startup.ts: they wire features to requests and schedules
const LIB_LAYERS = {
  core: ["config", "cache", "chain", "ssrf", "probe", "validations", "downloads", "demo", "http"],
  sales: ["sales"],
  listings: ["listings"],
  features: ["auth", "claims", "buyer-reviews", "test-purchases", "ingest", "sample-catalogue", "wallet"],
  entries: ["registry", "actions", "jobs"],
};
const folders = (...layers) => layers.flatMap((layer) => LIB_LAYERS[layer]).join("|");
const ALL_FOLDERS = folders(...Object.keys(LIB_LAYERS));

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
      comment:
        "A package is published on its own: it imports its own code, other packages as @agora-mcp/*, npm and Node modules only.",
      severity: "error",
      from: { path: "^packages/" },
      to: { pathNot: "^(packages|node_modules)/", dependencyTypesNot: ["core"] },
    },
    {
      name: "packages-not-into-other-packages-src",
      comment:
        "A package reaches another by its name (@agora-mcp/*, which resolves to that package's dist/), not into its src/.",
      severity: "error",
      from: { path: "^packages/([^/]+)/" },
      to: { path: "^packages/[^/]+/src/", pathNot: "^packages/$1/" },
    },
    {
      name: "lib-not-to-components-or-app",
      comment: "lib/ is below the screens: it may not import components/ or app/ (not even types).",
      severity: "error",
      from: { path: "^lib/" },
      to: { path: "^(components|app)/" },
    },
    {
      name: "components-not-to-app",
      comment: "components/ are below pages and routes: they may not import app/.",
      severity: "error",
      from: { path: "^components/" },
      to: { path: "^app/" },
    },
    // lib's folders stand in layers (docs/architecture.md draws them; LIB_LAYERS above names every folder);
    // each may import only the layers below.
    {
      name: "lib-folder-in-a-layer",
      comment:
        "Every folder of lib/ stands in one of LIB_LAYERS (this file): a new folder is placed there before it imports anything.",
      severity: "error",
      from: { path: "^lib/[^/]+/", pathNot: `^lib/(${ALL_FOLDERS})/` },
      to: {},
    },
    {
      name: "lib-core-not-to-features",
      comment: "lib's core folders import no feature, listings, sales or entry folder.",
      severity: "error",
      from: { path: `^lib/(${folders("core")})/` },
      to: { path: `^lib/(${folders("sales", "listings", "features", "entries")})/` },
    },
    {
      name: "lib-root-not-to-features",
      comment:
        "lib's root files are core too; startup.ts (which starts the jobs and registers the sample catalogue's seed) wires features in.",
      severity: "error",
      from: { path: "^lib/[^/]+$", pathNot: "^lib/startup\\.ts$" },
      to: { path: `^lib/(${folders("sales", "listings", "features", "entries")})/` },
    },
    {
      name: "sales-below-listings",
      comment: "The sales index is read by listings and features; it imports none of them.",
      severity: "error",
      from: { path: `^lib/(${folders("sales")})/` },
      to: { path: `^lib/(${folders("listings", "features", "entries")})/` },
    },
    {
      name: "listings-at-the-bottom-of-features",
      comment: "Listings are the features' common ground: they import no feature or entry folder.",
      severity: "error",
      from: { path: `^lib/(${folders("listings")})/` },
      to: { path: `^lib/(${folders("features", "entries")})/` },
    },
    {
      name: "lib-features-no-cycle",
      comment:
        "A feature folder may import claims (which imports no feature) but no other feature, so features never import each other in a circle; nor may a feature import an entry folder.",
      severity: "error",
      from: { path: `^lib/(${folders("features")})/` },
      to: { path: `^lib/(${folders("features", "entries")})/`, pathNot: ["^lib/$1/", "^lib/claims/"] },
    },
    {
      name: "claims-import-no-feature",
      comment:
        "Claims is the one feature others may call (a GitHub sign-in claims listings): it imports no other feature.",
      severity: "error",
      from: { path: "^lib/claims/" },
      to: { path: `^lib/(${folders("features", "entries")})/`, pathNot: "^lib/claims/" },
    },
    {
      name: "root-entries-through-lib",
      comment:
        "proxy.ts and instrumentation.ts are entries like app/: they reach the database through lib/ (lib/database.ts is the door).",
      severity: "error",
      from: { path: "^(proxy|instrumentation)\\.ts$" },
      to: { path: "^db/" },
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
      comment:
        "An import that does not resolve (a typo, or an alias the cruiser does not know, which would hide a violation).",
      severity: "error",
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    // A package's dist/ (where @agora-mcp/* resolves) shows as a dependency but is not followed.
    doNotFollow: { path: ["node_modules", "^packages/[^/]+/dist/"] },
    exclude: {
      path: "(^|/)(\\.next|\\.data|coverage|playwright-report|test-results)/|^bench/\\.tmp/|^bench/bare-next/\\.next/|^db/migrations/|next-env\\.d\\.ts$",
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

// Read by scripts/architecture-numbers.ts (not part of dependency-cruiser's configuration, hence not enumerable).
Object.defineProperty(module.exports, "libLayers", { value: LIB_LAYERS, enumerable: false });
