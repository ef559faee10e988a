// Run by `npm run build` after `next build`: completes .next/standalone into a server that runs without the
// source tree. Next traces the server's own files there; what it leaves out is copied here: the static
// assets and public/ (Next serves them from beside server.js), the preloads the start command names, the
// migrations and a bundled migration command (the standalone output has neither tsx nor the TypeScript sources).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const out = path.join(root, ".next", "standalone");

if (!fs.existsSync(path.join(out, "server.js"))) {
  console.error('No .next/standalone/server.js: run `next build` first (next.config.mjs sets output: "standalone").');
  process.exit(1);
}

function copy(from, to) {
  const source = path.join(root, from);
  if (!fs.existsSync(source)) return;
  fs.rmSync(path.join(out, to), { recursive: true, force: true });
  fs.cpSync(source, path.join(out, to), { recursive: true });
}

copy(".next/static", ".next/static");
copy("public", "public");
copy("db/migrations", "db/migrations");
// The preloads and the modules they import.
for (const file of fs.readdirSync(path.join(root, "server")).filter((f) => f.endsWith(".mjs")))
  copy(`server/${file}`, `server/${file}`);

// Next's trace names only the files the server runs (a path built at run time once made it copy the whole checkout,
// .data's development auth secret and embedded database included: lib/auth/development-secret.ts marks its paths
// turbopackIgnore, and tests/e2e/standalone-folder.spec.ts reads the trace). Should a future path widen it again,
// nothing local, secret or test ships all the same.
for (const local of [".data", "test-results", "tests", "bench", "docs", "sandbox"])
  fs.rmSync(path.join(out, local), { recursive: true, force: true });

// scripts/migrate.ts with everything it imports in one file; PGlite stays a package (its wasm and data files
// sit beside it in the traced node_modules).
await build({
  entryPoints: [path.join(root, "scripts/migrate.ts")],
  outfile: path.join(out, "migrate.mjs"),
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  alias: { "@": root },
  external: ["@electric-sql/pglite"],
  // Bundled CommonJS (postgres, drizzle) calls require; an ES module has none until it is made. The standalone folder
  // is the production server, so its migrate step checks the production settings (AUTH_SECRET …) as the server
  // will: a start without them stops here, before a migration runs or the server prints "Ready".
  banner: {
    js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url); process.env.NODE_ENV ||= 'production';",
  },
  logLevel: "warning",
});

console.log("standalone server ready in .next/standalone (start: see docs/production.md)");
