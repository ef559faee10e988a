// `npm run dev [-- -p <port>] [-- -H <host>]`: the site in development, on PORT (or -p; default 3000), listening on
// loopback (127.0.0.1) only unless HOSTNAME (or -H) names another address, such as HOSTNAME=0.0.0.0 for every
// interface: a development server with a development secret is not for other machines by default. Its pages,
// guides and the client tarball it builds name the origin it serves (SITE_URL defaults to http://localhost:<port>).
// Plain Node, no TypeScript: it only picks the port, then runs build:downloads and `next dev` with it.
import { spawn, spawnSync } from "node:child_process";
import { parseArgs } from "node:util";
import nextEnv from "@next/env";

const { values, tokens } = parseArgs({
  options: { port: { type: "string", short: "p" }, hostname: { type: "string", short: "H" } },
  strict: false,
  tokens: true,
});
// .env files first (as `next dev` reads them), so a SITE_URL or PORT set there counts before the defaults below.
nextEnv.loadEnvConfig(process.cwd(), true, { info: () => {}, error: console.error });
const rawPort = values.port ?? process.env.PORT ?? "3000";
const port = Number(rawPort);
if (typeof rawPort !== "string" || !/^\d+$/.test(rawPort) || port < 1 || port > 65_535) {
  console.error(`PORT (or -p) must be a port number from 1 to 65535, not "${String(rawPort)}".`);
  process.exit(2);
}
// Everything else (e.g. --turbopack, --experimental-https) goes to `next dev` as given.
const passed = tokens
  .filter((t) => t.kind !== "option" || (t.name !== "port" && t.name !== "hostname"))
  .map((t) => (t.kind === "option" ? t.rawName + (t.inlineValue ? `=${t.value}` : "") : t.value));
const hostname = typeof values.hostname === "string" ? values.hostname : process.env.HOSTNAME || "127.0.0.1";
const hostArgs = ["-H", hostname];
const env = {
  ...process.env,
  PORT: String(port),
  NEXT_TELEMETRY_DISABLED: "1",
  SITE_URL: process.env.SITE_URL || `http://localhost:${port}`,
};

const downloads = spawnSync(
  process.execPath,
  [
    "node_modules/tsx/dist/cli.mjs",
    "--import",
    "./scripts/support/server-only-off.mjs",
    "scripts/build-downloads.ts",
    "--dev",
  ],
  { env, stdio: "inherit" },
);
if (downloads.status !== 0) process.exit(downloads.status ?? 1);

const next = spawn(
  process.execPath,
  [
    "--import",
    "./server/client-address.mjs",
    "--import",
    "./server/dev-listeners.mjs",
    "node_modules/next/dist/bin/next",
    "dev",
    "-p",
    String(port),
    ...hostArgs,
    ...passed,
  ],
  { env, stdio: "inherit" },
);
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => next.kill(signal));
next.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
