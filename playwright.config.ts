import { defineConfig, devices } from "@playwright/test";
import fs from "node:fs";
// Ports, data directory and database derive from E2E_PORT so several checkouts can run their suites side by side.
import { fakeGitHubId } from "./tests/support/fake-github";
import {
  appPort as port,
  chainPort,
  facilitatorPort,
  githubPort,
  inboxPort,
  mailchimpPort,
  referencePort,
  smtpPort,
  upstreamRegistryPort,
} from "./tests/e2e/support/ports";
import { contactEmail, siteOrigin } from "./tests/e2e/support/deployment";
import { e2eTestPurchaseKey } from "./tests/e2e/support/test-purchase-key";

// Debian's Chromium: Playwright cannot download its own browsers here.
const chromium = ["/usr/bin/chromium", "/usr/lib/chromium/chromium"].find((p) => fs.existsSync(p));
const baseURL = siteOrigin;

// With DATABASE_URL set, the app under test runs on the PostgreSQL server in its own database.
const e2eDatabaseUrl = process.env.DATABASE_URL
  ? (() => {
      const u = new URL(process.env.DATABASE_URL);
      u.pathname = `/agora_e2e_${port}`;
      return u.toString();
    })()
  : undefined;

const appEnv: Record<string, string> = {
  NODE_ENV: "production",
  NEXT_TELEMETRY_DISABLED: "1",
  E2E: "1",
  PORT: String(port),
  // The standalone server binds HOSTNAME (0.0.0.0 by default); tests stay on loopback.
  HOSTNAME: "127.0.0.1",
  SITE_URL: baseURL,
  CONTACT_EMAIL: contactEmail,
  PGLITE_DIR: `.data/e2e-${port}`,
  RATE_LIMIT_DISABLED: "1",
  // A production build takes the test switches (rate limits off, probes of loopback) only with this.
  UNSAFE_TEST_MODE: "1",
  // The sample catalogue names hosts on the internet; the run reaches loopback only (the schedule has its own tests).
  CHECK_SCHEDULE_DISABLED: "1",
  MAILCHIMP_API_KEY: "e2e-key-us1",
  MAILCHIMP_AUDIENCE_ID: "e2e-audience",
  MAILCHIMP_API_BASE: `http://127.0.0.1:${mailchimpPort}/3.0`,
  // Sign-in against the fake GitHub (tests/support/fake-github.ts) and reset mail to the fake SMTP server.
  AUTH_SECRET: "e2e-auth-secret-not-for-production-0123456789",
  AUTH_TRUST_HOST: "true",
  AUTH_GITHUB_ID: "e2e-github-client",
  AUTH_GITHUB_SECRET: "e2e-github-secret",
  GITHUB_OAUTH_URL: `http://127.0.0.1:${githubPort}`,
  GITHUB_API_URL: `http://127.0.0.1:${githubPort}`,
  SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
  MAIL_FROM: "Agora <no-reply@agora.test>",
  // The review flow submits the reference MonetizedMCP server on loopback and probes it for real.
  ALLOW_PRIVATE_SERVER_URLS: "true",
  PROBE_ALLOW_PRIVATE_HOSTS: "true",
  // Admin by GitHub's numeric id (a login can change hands); the fake derives it from the login.
  ADMIN_GITHUB_IDS: String(fakeGitHubId("e2e-admin")),
  // The local chain (tests/e2e/support/payment-chain.ts): sales are read from it every second, counted once
  // mined, and buyer reviews are checked against it.
  CHAIN_RPC_URLS: `eip155:84532=http://127.0.0.1:${chainPort}`,
  SALES_INDEX_INTERVAL_SECONDS: "1",
  SALES_CONFIRMATIONS: "0",
  // A wallet for the admin page to show; the daily budget stays 0 (off), so it never buys.
  TEST_PURCHASE_WALLET_KEY: e2eTestPurchaseKey,
  // A local upstream registry (tests/e2e/support/upstream-registry.ts); read only when an admin presses "Run now".
  INGEST_SOURCES: `mcp-registry=http://127.0.0.1:${upstreamRegistryPort}`,
  ...(e2eDatabaseUrl ? { DATABASE_URL: e2eDatabaseUrl, E2E_DATABASE_URL: e2eDatabaseUrl } : { DATABASE_URL: "" }),
};

// `npm run build`: the packages, their tarballs for /downloads (made for this SITE_URL), then the site.
const build = process.env.E2E_SKIP_BUILD === "1" ? "" : "npm run build && ";
// On PostgreSQL the site runs as in production: the standalone server through `npm run start:prod` (docs/production.md,
// Production), the command the container image runs; on the embedded database through `npm start`'s `next start`.
const serve = e2eDatabaseUrl
  ? "npm run start:prod"
  : `node --import ./server/client-address.mjs --import ./server/graceful-shutdown.mjs --import ./server/overload.mjs --import ./server/static-fast-path.mjs node_modules/next/dist/bin/next start -p ${port}`;

// Pages prerendered at build time (guides, legal pages, the event demo) are the same HTML whatever the database:
// E2E_SKIP_PRERENDERED=1 leaves their specs out (CI's PostgreSQL pass; the PGlite pass runs them).
const prerenderedSpecs = ["**/content.spec.ts", "**/static-pages.spec.ts", "**/demo.spec.ts"];

export default defineConfig({
  testDir: "tests/e2e",
  testIgnore: process.env.E2E_SKIP_PRERENDERED === "1" ? prerenderedSpecs : [],
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  use: {
    baseURL,
    // Recording a trace of every test costs the browser CPU on two cores; CI records one for a retried test only.
    trace:
      (process.env.E2E_TRACE as "on" | "off" | "retain-on-failure" | "on-first-retry" | undefined) ??
      (process.env.CI ? "on-first-retry" : "retain-on-failure"),
    launchOptions: {
      executablePath: chromium,
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
    },
  },
  // E2E_PROJECTS=desktop runs one viewport (CI's PostgreSQL pass: the phone layout does not depend on the database).
  projects: [
    { name: "desktop", use: { ...devices["Desktop Chrome"], viewport: { width: 1280, height: 800 } } },
    { name: "mobile", use: { ...devices["Pixel 7"], viewport: { width: 390, height: 844 } } },
  ].filter((p) => !process.env.E2E_PROJECTS || process.env.E2E_PROJECTS.split(",").includes(p.name)),
  webServer: [
    {
      command: `FAKE_MAILCHIMP_PORT=${mailchimpPort} npx tsx tests/support/fake-mailchimp.ts`,
      port: mailchimpPort,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      command: `FAKE_GITHUB_PORT=${githubPort} FAKE_GITHUB_REDIRECT_ORIGIN=${baseURL} npx tsx tests/support/fake-github.ts`,
      port: githubPort,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      command: `FAKE_SMTP_PORT=${smtpPort} FAKE_SMTP_INBOX_PORT=${inboxPort} npx tsx tests/support/fake-smtp.ts`,
      url: `http://127.0.0.1:${inboxPort}/messages`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      command: `PORT=${referencePort} npx tsx examples/monetized-server/index.ts`,
      port: referencePort,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      command: "npx tsx tests/e2e/support/payment-chain.ts",
      port: facilitatorPort,
      reuseExistingServer: false,
      timeout: 60_000,
    },
    {
      command: `npx tsx tests/e2e/support/upstream-registry.ts`,
      port: upstreamRegistryPort,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      command: `npx tsx tests/e2e/support/prepare-db.ts && ${build}${serve}`,
      url: `${baseURL}/terms-of-service`,
      env: appEnv,
      reuseExistingServer: false,
      timeout: 600_000, // a production build on two shared cores can take minutes
      stdout: "pipe",
    },
  ],
});
