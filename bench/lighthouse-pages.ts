// Lighthouse several times per page, medians printed: npx tsx bench/lighthouse-pages.ts BASE_URL[,BASE_URL…] RUNS PATH...
// Several base URLs (two builds side by side: before and after a change) are measured in turns, run by run, so a
// change in the machine's load falls on each of them alike.
// Each run is bench/lighthouse.sh (desktop preset by default, LH_THROTTLING=mobile for Lighthouse's mobile
// defaults; Debian's Chromium); Lighthouse scores are noisy on a shared machine, so one run proves little. Loopback only.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";

const [basesArg = "http://localhost:3700", runsArg = "3", ...paths] = process.argv.slice(2);
const bases = basesArg.split(",");
const runs = Number(runsArg);
if (
  !bases.every((b) => ["localhost", "127.0.0.1"].includes(new URL(b).hostname)) ||
  !Number.isInteger(runs) ||
  runs < 1
) {
  console.error(
    "usage: npx tsx bench/lighthouse-pages.ts http://localhost:PORT[,http://localhost:PORT2] RUNS /path ...",
  );
  process.exit(2);
}

type Run = {
  perf: number;
  a11y: number;
  bp: number;
  seo: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  si: number;
  scriptKb: number;
  lcpElement: string;
};
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

console.log(
  `${new Date().toISOString()}  load ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}  ${runs} run(s) per page`,
);
function measure(base: string, p: string): Run {
  // On a starved machine Lighthouse sometimes loses the trace (NO_NAVSTART): such a run is retried once.
  try {
    execFileSync("bash", ["bench/lighthouse.sh", base, p], { stdio: ["ignore", "ignore", "inherit"] });
  } catch {
    console.log(`  ${base}${p}: Lighthouse failed, retrying once`);
    execFileSync("bash", ["bench/lighthouse.sh", base, p], { stdio: ["ignore", "ignore", "inherit"] });
  }
  const r = JSON.parse(fs.readFileSync("bench/.tmp/lighthouse/report.json", "utf8"));
  const a = r.audits;
  const lcpEl = a["largest-contentful-paint-element"]?.details?.items?.[0]?.items?.[0]?.node?.snippet ?? "";
  return {
    perf: Math.round(r.categories.performance.score * 100),
    a11y: Math.round(r.categories.accessibility.score * 100),
    bp: Math.round(r.categories["best-practices"].score * 100),
    seo: Math.round(r.categories.seo.score * 100),
    fcp: a["first-contentful-paint"].numericValue,
    lcp: a["largest-contentful-paint"].numericValue,
    tbt: a["total-blocking-time"].numericValue,
    cls: a["cumulative-layout-shift"].numericValue,
    si: a["speed-index"].numericValue,
    // Script bytes as transferred (compressed) over the whole load, as the network panel counts them.
    scriptKb:
      (a["network-requests"]?.details?.items ?? [])
        .filter((item: { resourceType?: string }) => item.resourceType === "Script")
        .reduce((sum: number, item: { transferSize?: number }) => sum + (item.transferSize ?? 0), 0) / 1000,
    lcpElement: String(lcpEl).slice(0, 90),
  };
}

for (const p of paths.length ? paths : ["/marketplace"]) {
  const results = new Map<string, Run[]>(bases.map((b) => [b, []]));
  for (let i = 0; i < runs; i++) {
    for (const base of bases) {
      const x = measure(base, p);
      results.get(base)!.push(x);
      console.log(
        `  ${base}${p} run ${i + 1}: perf ${x.perf}  FCP ${Math.round(x.fcp)} ms  LCP ${Math.round(x.lcp)} ms  TBT ${Math.round(x.tbt)} ms  CLS ${x.cls.toFixed(3)}  SI ${Math.round(x.si)} ms  script ${x.scriptKb.toFixed(1)} kB  a11y ${x.a11y} bp ${x.bp} seo ${x.seo}`,
      );
    }
  }
  for (const base of bases) {
    const rs = results.get(base)!;
    const m = (k: keyof Omit<Run, "lcpElement">) => median(rs.map((x) => x[k]));
    const label = bases.length > 1 ? `${base}${p}` : p;
    console.log(
      `${label.padEnd(36)} median perf ${m("perf")}  FCP ${Math.round(m("fcp"))} ms  LCP ${Math.round(m("lcp"))} ms  TBT ${Math.round(m("tbt"))} ms  CLS ${m("cls").toFixed(3)}  SI ${Math.round(m("si"))} ms  script ${m("scriptKb").toFixed(1)} kB  a11y ${m("a11y")} bp ${m("bp")} seo ${m("seo")}  (runs: ${rs.map((x) => x.perf).join(", ")})`,
    );
    console.log(`    LCP element: ${rs[rs.length - 1].lcpElement}`);
  }
}
