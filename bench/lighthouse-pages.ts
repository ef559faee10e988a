// Lighthouse several times per page, medians printed: npx tsx bench/lighthouse-pages.ts BASE_URL RUNS PATH...
// Each run is bench/lighthouse.sh (desktop preset by default, LH_THROTTLING=mobile for Lighthouse's mobile
// defaults; Debian's Chromium); Lighthouse scores are noisy on a shared machine, so one run proves little. Loopback only.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";

const [base = "http://localhost:3700", runsArg = "3", ...paths] = process.argv.slice(2);
const runs = Number(runsArg);
const host = new URL(base).hostname;
if (!["localhost", "127.0.0.1"].includes(host) || !Number.isInteger(runs) || runs < 1) {
  console.error("usage: npx tsx bench/lighthouse-pages.ts http://localhost:PORT RUNS /path ...");
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
for (const p of paths.length ? paths : ["/marketplace"]) {
  const results: Run[] = [];
  for (let i = 0; i < runs; i++) {
    // On a starved machine Lighthouse sometimes loses the trace (NO_NAVSTART): such a run is retried once.
    try {
      execFileSync("bash", ["bench/lighthouse.sh", base, p], { stdio: ["ignore", "ignore", "inherit"] });
    } catch {
      console.log(`  ${p} run ${i + 1}: Lighthouse failed, retrying once`);
      execFileSync("bash", ["bench/lighthouse.sh", base, p], { stdio: ["ignore", "ignore", "inherit"] });
    }
    const r = JSON.parse(fs.readFileSync("bench/.tmp/lighthouse/report.json", "utf8"));
    const a = r.audits;
    const lcpEl = a["largest-contentful-paint-element"]?.details?.items?.[0]?.items?.[0]?.node?.snippet ?? "";
    results.push({
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
    });
    const x = results[results.length - 1];
    console.log(
      `  ${p} run ${i + 1}: perf ${x.perf}  FCP ${Math.round(x.fcp)} ms  LCP ${Math.round(x.lcp)} ms  TBT ${Math.round(x.tbt)} ms  CLS ${x.cls.toFixed(3)}  SI ${Math.round(x.si)} ms  script ${x.scriptKb.toFixed(1)} kB  a11y ${x.a11y} bp ${x.bp} seo ${x.seo}`,
    );
  }
  const m = (k: keyof Omit<Run, "lcpElement">) => median(results.map((x) => x[k]));
  console.log(
    `${p.padEnd(36)} median perf ${m("perf")}  FCP ${Math.round(m("fcp"))} ms  LCP ${Math.round(m("lcp"))} ms  TBT ${Math.round(m("tbt"))} ms  CLS ${m("cls").toFixed(3)}  SI ${Math.round(m("si"))} ms  script ${m("scriptKb").toFixed(1)} kB  a11y ${m("a11y")} bp ${m("bp")} seo ${m("seo")}  (runs: ${results.map((x) => x.perf).join(", ")})`,
  );
  console.log(`    LCP element: ${results[results.length - 1].lcpElement}`);
}
