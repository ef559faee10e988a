// npm run bench:profile -- <file.cpuprofile | dir> [--top 25] [--skip-seconds 5]
// Where a server's CPU went, from a V8 CPU profile (node --cpu-prof, as `npm run bench:search -- --cpu-prof DIR`
// writes): self time by function and by place (a package in node_modules, or a file of this repository), and the
// total (self + callees) of this repository's own functions, so a page's cost splits into Next's, React's and ours.
// The first seconds (start-up, first compiles) are left out by default.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { FlattenMap, originalPositionFor, type TraceMap } from "@jridgewell/trace-mapping";

type Frame = { functionName: string; url: string; lineNumber: number; columnNumber: number };
type Node = { id: number; callFrame: Frame; children?: number[] };
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[]; startTime: number };

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: { top: { type: "string", default: "25" }, "skip-seconds": { type: "string", default: "5" } },
});
const top = Number(args.top);

function profileFiles(target: string): string[] {
  if (!fs.statSync(target).isDirectory()) return [target];
  return fs
    .readdirSync(target, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".cpuprofile"))
    .map((f) => path.join(target, f));
}

/** A package in node_modules (`next`, `react-dom`, `@x402/core`), this repository's file, or Node's own code. */
function place(url: string): string {
  if (!url) return "(V8 / native)";
  const nm = url.lastIndexOf("node_modules/");
  if (nm >= 0) {
    const rest = url.slice(nm + "node_modules/".length).split("/");
    const pkg = rest[0]!.startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0]!;
    // Next's compiled copies of React and others are the package they came from, not Next's own work.
    const compiled = /next\/dist\/compiled\/([^/]+)/.exec(url);
    return compiled ? `next (compiled ${compiled[1]})` : pkg;
  }
  if (url.startsWith("node:")) return "node (its own library)";
  const chunk = /\.next\/server\/chunks\/(?:ssr\/)?(.+)$/.exec(url);
  if (chunk) return `app bundle (${chunk[1]!.replace(/_[0-9a-z-]+\._\.js$/, "")})`;
  return url.replace(/^file:\/\//, "").replace(process.cwd() + "/", "");
}

const maps = new Map<string, TraceMap | null>();

/** The source map beside a bundled or minified file (Next's runtime and the app's chunks ship theirs), if any. */
function mapOf(url: string): TraceMap | null {
  if (!url.startsWith("file://")) return null;
  if (!maps.has(url)) {
    const mapFile = `${fileURLToPath(url)}.map`;
    maps.set(url, fs.existsSync(mapFile) ? FlattenMap(fs.readFileSync(mapFile, "utf8")) : null);
  }
  return maps.get(url)!;
}

/**
 * A frame named by its source: minified names (`ez`, `t`) and bundle chunks say nothing, so where a map exists the
 * frame is read as the original file and line, and the place as the package or repository folder it came from.
 */
function named(frame: Frame): { name: string; where: string } {
  const map = mapOf(frame.url);
  const at = map ? originalPositionFor(map, { line: frame.lineNumber + 1, column: frame.columnNumber }) : null;
  if (!at?.source)
    return {
      name: `${frame.functionName || "(anonymous)"} ${place(frame.url)}:${frame.lineNumber + 1}`,
      where: place(frame.url),
    };
  const source = at.source.replace(/^(webpack|turbopack):\/\/\/?(\[project\]\/)?/, "").replace(/^\.\.\/(\.\.\/)*/, "");
  const fn = frame.functionName.length > 3 ? frame.functionName : (at.name ?? frame.functionName) || "(anonymous)";
  return { name: `${fn} ${source}:${at.line}`, where: sourcePlace(source, place(frame.url)) };
}

/** The package or top folder a mapped source belongs to. */
function sourcePlace(source: string, fallback: string): string {
  const nm = source.lastIndexOf("node_modules/");
  if (nm >= 0) {
    const rest = source.slice(nm + "node_modules/".length).split("/");
    return rest[0]!.startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  if (/^(src\/)?(server|client|shared|build|lib|export)\//.test(source) && fallback.startsWith("next")) return fallback;
  const top = source.split("/")[0]!;
  return ["app", "components", "lib", "db", "packages", "proxy.ts", "instrumentation.ts"].includes(top)
    ? `agora: ${top}`
    : fallback;
}

function summarise(file: string) {
  const profile = JSON.parse(fs.readFileSync(file, "utf8")) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const skipUs = Number(args["skip-seconds"]) * 1e6;
  const self = new Map<number, number>();
  let t = 0;
  let total = 0;
  profile.samples.forEach((id, i) => {
    t += profile.timeDeltas[i] ?? 0;
    if (t < skipUs) return;
    const dt = profile.timeDeltas[i + 1] ?? 0;
    self.set(id, (self.get(id) ?? 0) + dt);
    total += dt;
  });
  const idle = new Set(["(idle)", "(program)", "(garbage collector)"]);
  const fn = new Map<string, number>();
  const places = new Map<string, number>();
  const ours = new Map<string, number>();
  for (const [id, us] of self) {
    const frame = byId.get(id)!.callFrame;
    const { name: key, where: mapped } = named(frame);
    fn.set(key, (fn.get(key) ?? 0) + us);
    const where = idle.has(frame.functionName) ? frame.functionName : mapped;
    places.set(where, (places.get(where) ?? 0) + us);
    // Inclusive time of this repository's own functions: every ancestor frame of ours on the stack, once per sample.
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const f = named(byId.get(at)!.callFrame);
      if (!f.where.startsWith("agora:")) continue;
      const k = f.name;
      if (seen.has(k)) continue;
      seen.add(k);
      ours.set(k, (ours.get(k) ?? 0) + us);
    }
  }
  const busy = total - (places.get("(idle)") ?? 0);
  // Shares of the time the process was busy: an idle moment between rows is no one's cost.
  const pct = (us: number) => `${((us / Math.max(1, busy)) * 100).toFixed(1)} %`;
  const table = (title: string, m: Map<string, number>) => {
    console.log(`\n| ${title} | share |\n|---|---:|`);
    for (const [k, us] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top))
      console.log(`| \`${k.replaceAll("|", "\\|")}\` | ${pct(us)} |`);
  };
  console.log(
    `\n## ${path.basename(file)}: ${(busy / 1e6).toFixed(1)} s busy of ${(total / 1e6).toFixed(1)} s sampled after the first ${args["skip-seconds"]} s (shares of busy time)`,
  );
  places.delete("(idle)");
  fn.delete("(idle) (V8 / native):0");
  table("self time by place", places);
  table("self time by function", fn);
  table("this app's functions, self + callees", ours);
}

for (const target of positionals) for (const file of profileFiles(target)) summarise(file);
