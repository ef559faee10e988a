// Screenshots of pages at desktop and phone widths: node scripts/screenshots.mjs BASE OUTDIR /path …
import { chromium } from "@playwright/test";
const [, , base, out, ...paths] = process.argv;
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
  ],
});
for (const [w, h, tag] of [
  [1280, 800, "d"],
  [390, 844, "m"],
]) {
  const page = await browser.newPage({ viewport: { width: w, height: h } });
  for (const p of paths) {
    await page.goto(base + p, { waitUntil: "networkidle" });
    const name = p.replace(/[^a-z0-9]+/gi, "_") || "home";
    await page.screenshot({ path: `${out}/${name}-${tag}.png`, fullPage: process.env.FULL === "1" });
  }
  await page.close();
}
await browser.close();
