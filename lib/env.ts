// The one place that reads process.env on the server: every variable is validated with zod at start-up.
import { z } from "zod";
import { parseIngestSources } from "./config/ingest-sources";
import { parseRpcUrls } from "./config/rpc-urls";

/** The contact address where the operator sets none (CONTACT_EMAIL; pages read contactEmail() in lib/deployment.ts). */
export const DEFAULT_CONTACT_EMAIL = "hello@agora-mcp.dev";

const optionalString = z
  .string()
  .trim()
  .transform((v) => (v === "" ? undefined : v))
  .optional();
const optionalUrl = optionalString.pipe(z.url().optional());
const flag = z
  .enum(["true", "false", "1", "0", ""])
  .optional()
  .transform((v) => v === "true" || v === "1");

/** A whole number setting with a default and bounds. */
function wholeNumber(fallback: number, min: number, max: number, tooLarge: string) {
  return optionalString
    .transform((v) => (v === undefined ? fallback : Number(v)))
    .pipe(z.number().int("must be a whole number").min(min, `must be at least ${min}`).max(max, tooLarge));
}

/** An amount in US dollars (`0.50`), kept as the exact string; checked by usdToUnits where it is used. */
/** A listed price may rise up to twice the approved one at once; a dearer one waits for review. */
export const DEFAULT_PRICE_RISE_REVIEW_FACTOR = 2;

function usdSetting(fallback: string) {
  return optionalString
    .transform((v) => v ?? fallback)
    .pipe(z.string().regex(/^\d{1,9}(\.\d{1,6})?$/, "must be an amount in US dollars such as 0.50"));
}

function isOrigin(value: string): boolean {
  if (!URL.canParse(value)) return true; // z.url() has already named the variable
  const url = new URL(value);
  return (
    (url.protocol === "https:" || url.protocol === "http:") &&
    url.pathname === "/" &&
    !url.search &&
    !url.hash &&
    !url.username &&
    !url.password
  );
}

// What prerendered pages read (install lines, the contact address): checked on their own by pageSettings() too,
// so a build, which renders those pages, needs none of the server's secrets.
const pageSettingsShape = {
  // Every URL the pages, guides and the downloaded client name starts with it, so it is an origin and nothing more.
  SITE_URL: optionalUrl.refine(
    (v) => v === undefined || isOrigin(v),
    "must be an origin such as https://agora.example (http or https, no path, query or fragment)",
  ),
  // The address pages give for questions and legal notices.
  CONTACT_EMAIL: optionalString
    .pipe(z.email("must be an email address").optional())
    .transform((v) => v ?? DEFAULT_CONTACT_EMAIL),
  // The client and the provider kit are published on the npm registry: install lines name the packages
  // (`npx -y @agora-mcp/client`) instead of this site's tarballs ({SITE_URL}/downloads/…).
  PACKAGES_ON_REGISTRY: flag,
  // Set only by `npm run sandbox` for the site it runs: the sandbox's chain and funded buyer wallet, which the
  // config blocks on its pages then name (AGORA_RPC_URL, AGORA_WALLET_FILE), so a block copied there works as is.
  SANDBOX_RPC_URL: optionalUrl,
  SANDBOX_WALLET_FILE: optionalString.pipe(z.string().startsWith("/", "must be an absolute path").optional()),
};
const pageSettingsSchema = z.object(pageSettingsShape);

/** Switches that turn a protection off, for tests; production accepts them only with UNSAFE_TEST_MODE. */
export const TEST_SWITCHES = ["RATE_LIMIT_DISABLED", "PROBE_ALLOW_PRIVATE_HOSTS"] as const;

const schema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    DATABASE_URL: optionalString.pipe(
      z
        .string()
        .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
        .optional(),
    ),
    PGLITE_DIR: z.string().trim().min(1).default(".data/pglite"),
    ...pageSettingsShape,
    // The embedded database's buffer cache (PostgreSQL's shared_buffers), resident in the app's process from start;
    // unset → db/connect.ts's default (16 MB).
    PGLITE_SHARED_BUFFERS_MB: optionalString
      .transform((v) => (v === undefined ? undefined : Number(v)))
      .pipe(z.number().int("must be a whole number of MB").min(1).max(1024, "must be at most 1024").optional()),
    // Logs the process's memory (RSS, V8 heap, external incl. PGlite's WebAssembly memory) every N seconds; 0 = off.
    MEMORY_LOG_SECONDS: optionalString
      .transform((v) => (v === undefined ? 0 : Number(v)))
      .pipe(z.number().int("must be a whole number of seconds").min(0).max(3600, "must be at most 3600")),
    NEXT_PUBLIC_POSTHOG_KEY: optionalString,
    NEXT_PUBLIC_POSTHOG_HOST: optionalUrl,
    MAILCHIMP_API_KEY: optionalString,
    MAILCHIMP_AUDIENCE_ID: optionalString,
    // Defaults to https://{dc}.api.mailchimp.com/3.0 from the key's data-centre suffix; tests point it at a fake.
    MAILCHIMP_API_BASE: optionalUrl,
    RATE_LIMIT_DISABLED: flag,
    // The only way a production build accepts the test switches (RATE_LIMIT_DISABLED, PROBE_ALLOW_PRIVATE_HOSTS):
    // an ambient CI or E2E variable, which hosts may set for their own reasons, never unlocks them.
    UNSAFE_TEST_MODE: flag,
    // Admins by configuration (also `npm run admin:grant`): GitHub numeric user ids, and emails that count only
    // once their owner has proven them (a verified GitHub/Google address or the verification link).
    ADMIN_GITHUB_IDS: optionalString.pipe(
      z
        .string()
        .regex(
          /^\d{1,20}(\s*,\s*\d{1,20})*$/,
          "must be comma-separated GitHub numeric user ids (https://api.github.com/users/<login> shows `id`)",
        )
        .optional(),
    ),
    ADMIN_EMAILS: optionalString,
    // Refused: a login can change hands after a rename (see the superRefine below).
    ADMIN_GITHUB_LOGINS: optionalString,
    // How many reverse proxies in front of the app append to X-Forwarded-For; 0 (default) = none, the TCP
    // peer is the client. Set it to exactly the number of proxies you run, never more.
    TRUSTED_PROXY_HOPS: optionalString
      .transform((v) => (v === undefined ? 0 : Number(v)))
      .pipe(z.number().int("must be a whole number of proxies").min(0).max(10)),
    // Lets the probe reach loopback and private-network hosts (tests, local development).
    PROBE_ALLOW_PRIVATE_HOSTS: flag,
    // Sources of listings to ingest (lib/ingest): `mcp-registry=https://registry.modelcontextprotocol.io`, comma-separated.
    INGEST_SOURCES: optionalString,
    // Where the site reads each payment network's chain (lib/chain): `eip155:84532=https://sepolia.base.org`, comma-separated.
    CHAIN_RPC_URLS: optionalString,
    // The sales indexer (lib/sales): how often it reads new blocks (its own schedule and lease; 0 = off), how many
    // blocks deep a sale must be before it counts, how many recent blocks each run reads again (a reorg there removes
    // what it undid), the most blocks one eth_getLogs asks for (RPCs cap it), and how far back a first run starts.
    SALES_INDEX_INTERVAL_SECONDS: wholeNumber(60, 0, 24 * 3600, "must be at most a day (86400)"),
    SALES_CONFIRMATIONS: wholeNumber(2, 0, 1000, "must be at most 1000"),
    SALES_REORG_DEPTH: wholeNumber(64, 1, 10_000, "must be at most 10000"),
    SALES_MAX_BLOCK_RANGE: wholeNumber(2000, 1, 100_000, "must be at most 100000"),
    SALES_BACKFILL_BLOCKS: wholeNumber(50_000, 0, 10_000_000, "must be at most 10000000"),
    // Agora's own test purchases from paid listings (lib/test-purchases). The wallet's key: 0x and 64 hex digits,
    // only ever read from here (never stored, logged or shown). Off while the daily budget is 0.
    TEST_PURCHASE_WALLET_KEY: optionalString.pipe(
      z
        .string()
        .regex(/^0x[0-9a-fA-F]{64}$/, "must be 0x and 64 hex digits (a private key)")
        .optional(),
    ),
    // USDC a day the test purchases may spend, e.g. 1.00; 0 (default) turns them off.
    TEST_PURCHASE_DAILY_BUDGET: usdSetting("0"),
    // The most one test purchase may cost; dearer items are never bought.
    TEST_PURCHASE_MAX_PRICE: usdSetting("0.10"),
    // How often each listing is test-bought at most (default 7 days).
    TEST_PURCHASE_INTERVAL_SECONDS: optionalString
      .transform((v) => (v === undefined ? 7 * 24 * 3600 : Number(v)))
      .pipe(
        z
          .number()
          .int("must be a whole number of seconds")
          .min(1)
          .max(90 * 24 * 3600, "must be at most 90 days"),
      ),
    // How long a purchase may take to deliver (an asynchronous item: its promised time, at most this again).
    TEST_PURCHASE_TIMEOUT_SECONDS: optionalString
      .transform((v) => (v === undefined ? 60 : Number(v)))
      .pipe(z.number().int("must be a whole number of seconds").min(1).max(600, "must be at most 600")),
    // A listed server whose price rises past this many times its approved price (or that names another payee) keeps
    // its approved terms on every surface, without Verified, until a reviewer approves the change (lib/listings/checks/drift.ts).
    PRICE_RISE_REVIEW_FACTOR: optionalString
      .transform((v) => (v === undefined ? DEFAULT_PRICE_RISE_REVIEW_FACTOR : Number(v)))
      .pipe(
        z
          .number("must be a number")
          .min(1, "must be at least 1 (1: every rise waits for review)")
          .max(1000, "must be at most 1000"),
      ),
    // How often the app re-probes every listing (one instance at a time, coordinated in the database).
    CHECK_INTERVAL_SECONDS: optionalString
      .transform((v) => (v === undefined ? 3600 : Number(v)))
      .pipe(
        z
          .number()
          .int("must be a whole number of seconds")
          .min(1)
          .max(7 * 24 * 3600, "must be at most a week (604800)"),
      ),
    // Turns the in-app schedule off, for deployments that run `npm run check:all` from cron instead.
    CHECK_SCHEDULE_DISABLED: flag,
    // How long a search result is reused for the same search (lib/listings/search/search.ts); 0 turns the cache off.
    SEARCH_CACHE_TTL_SECONDS: optionalString
      .transform((v) => (v === undefined ? 10 : Number(v)))
      .pipe(z.number().int("must be a whole number of seconds").min(0).max(300, "must be at most 300")),

    // Auth.js reads AUTH_SECRET, AUTH_TRUST_HOST and AUTH_{GITHUB,GOOGLE}_{ID,SECRET} itself; they are checked here too.
    AUTH_SECRET: optionalString.pipe(
      z.string().min(32, "must be at least 32 characters (openssl rand -base64 32)").optional(),
    ),
    AUTH_TRUST_HOST: flag,
    // Optional public origin for Auth.js (an alternative to AUTH_TRUST_HOST behind a proxy).
    AUTH_URL: optionalUrl,
    AUTH_GITHUB_ID: optionalString,
    AUTH_GITHUB_SECRET: optionalString,
    // GitHub's sign-in and API origins; tests point them at a fake provider on loopback.
    GITHUB_OAUTH_URL: optionalUrl.transform((v) => (v ?? "https://github.com").replace(/\/$/, "")),
    GITHUB_API_URL: optionalUrl.transform((v) => (v ?? "https://api.github.com").replace(/\/$/, "")),
    AUTH_GOOGLE_ID: optionalString,
    AUTH_GOOGLE_SECRET: optionalString,
    // Password reset mail: smtp://user:pass@host:587 or smtps://…; unset → the link is only logged (in development).
    SMTP_URL: optionalString.pipe(
      z
        .string()
        .regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL")
        .optional(),
    ),
    MAIL_FROM: z.string().trim().min(3).default("Agora <no-reply@localhost>"),
    // Lets submitted server URLs use http and private or loopback hosts in production (test deployments only).
    ALLOW_PRIVATE_SERVER_URLS: flag,
  })
  .superRefine((env, ctx) => {
    if (env.MAILCHIMP_API_KEY && !env.MAILCHIMP_AUDIENCE_ID) {
      ctx.addIssue({
        code: "custom",
        path: ["MAILCHIMP_AUDIENCE_ID"],
        message: "is required when MAILCHIMP_API_KEY is set",
      });
    }
    if (env.MAILCHIMP_API_KEY && !env.MAILCHIMP_API_BASE && !/-[a-z0-9]+$/.test(env.MAILCHIMP_API_KEY)) {
      ctx.addIssue({
        code: "custom",
        path: ["MAILCHIMP_API_KEY"],
        message: "must end in its data-centre suffix, e.g. -us21",
      });
    }
    if (Boolean(env.AUTH_GITHUB_ID) !== Boolean(env.AUTH_GITHUB_SECRET)) {
      ctx.addIssue({
        code: "custom",
        path: [env.AUTH_GITHUB_ID ? "AUTH_GITHUB_SECRET" : "AUTH_GITHUB_ID"],
        message: "is required when the other GitHub credential is set",
      });
    }
    if (Boolean(env.AUTH_GOOGLE_ID) !== Boolean(env.AUTH_GOOGLE_SECRET)) {
      ctx.addIssue({
        code: "custom",
        path: [env.AUTH_GOOGLE_ID ? "AUTH_GOOGLE_SECRET" : "AUTH_GOOGLE_ID"],
        message: "is required when the other Google credential is set",
      });
    }
    if (env.NODE_ENV === "production" && !env.AUTH_SECRET) {
      ctx.addIssue({
        code: "custom",
        path: ["AUTH_SECRET"],
        message: "is required in production (openssl rand -base64 32)",
      });
    }
    try {
      parseIngestSources(env.INGEST_SOURCES);
    } catch (error) {
      ctx.addIssue({ code: "custom", path: ["INGEST_SOURCES"], message: (error as Error).message });
    }
    try {
      parseRpcUrls(env.CHAIN_RPC_URLS);
    } catch (error) {
      ctx.addIssue({ code: "custom", path: ["CHAIN_RPC_URLS"], message: (error as Error).message });
    }
    if (
      env.TEST_PURCHASE_DAILY_BUDGET !== "0" &&
      Number(env.TEST_PURCHASE_DAILY_BUDGET) > 0 &&
      !env.TEST_PURCHASE_WALLET_KEY
    ) {
      ctx.addIssue({
        code: "custom",
        path: ["TEST_PURCHASE_WALLET_KEY"],
        message: "is required when TEST_PURCHASE_DAILY_BUDGET is more than 0",
      });
    }
    if (env.ADMIN_GITHUB_LOGINS) {
      ctx.addIssue({
        code: "custom",
        path: ["ADMIN_GITHUB_LOGINS"],
        message:
          "is no longer supported (a login can change hands after a rename): use ADMIN_GITHUB_IDS with the accounts' numeric GitHub ids",
      });
    }
    // The public origin (OAuth redirect_uri, origin checks, mailed links) comes from configuration in
    // production, never from Host / X-Forwarded-Host, which any client can send.
    if (env.NODE_ENV === "production" && !env.AUTH_URL && !env.SITE_URL) {
      ctx.addIssue({
        code: "custom",
        path: ["SITE_URL"],
        message:
          "is required in production (the public origin, e.g. https://agora.example); AUTH_URL may be set instead",
      });
    }
    if (env.NODE_ENV === "production" && env.SMTP_URL && !env.SITE_URL) {
      ctx.addIssue({
        code: "custom",
        path: ["SITE_URL"],
        message: "is required when SMTP_URL is set: reset links are built from it",
      });
    }
    // Without limits anyone can flood sign-in and submissions; a production probe that may reach private hosts
    // would let any submitter scan the internal network.
    for (const name of TEST_SWITCHES) {
      if (env.NODE_ENV === "production" && env[name] && !env.UNSAFE_TEST_MODE) {
        ctx.addIssue({
          code: "custom",
          path: [name],
          message: "may not be set in production (a test deployment also sets UNSAFE_TEST_MODE=1)",
        });
      }
    }
  });

export type Env = z.infer<typeof schema>;

/** Every variable the site reads (the client package has settings of its own). */
export const SITE_SETTING_NAMES: readonly string[] = Object.keys(schema.shape);

function parseWith<T>(settings: z.ZodType<T>, source: Record<string, string | undefined>): T {
  const result = settings.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".") || "(env)"}: ${i.message}`);
    throw new Error(`Invalid environment configuration:\n${lines.join("\n")}`);
  }
  return result.data;
}

/**
 * Settings renamed so that one word names one thing ("check" is what the app does to a listing's server; "verify"
 * was also its name): an operator's settings under the former name keep working while the new one is unset.
 */
const FORMER_SETTING_NAMES = {
  VERIFY_INTERVAL_SECONDS: "CHECK_INTERVAL_SECONDS",
  VERIFY_SCHEDULE_DISABLED: "CHECK_SCHEDULE_DISABLED",
} as const;

export function parseEnv(source: Record<string, string | undefined>): Env {
  const named = { ...source };
  for (const [former, current] of Object.entries(FORMER_SETTING_NAMES)) {
    if (named[current] === undefined && named[former] !== undefined) named[current] = named[former];
  }
  return parseWith(schema, named);
}

type PageSettings = z.infer<typeof pageSettingsSchema>;

const PAGE_SETTING_NAMES = Object.keys(pageSettingsShape) as (keyof typeof pageSettingsShape)[];
let pageSettingsRead: { raw: string; settings: PageSettings } | undefined;

/**
 * The settings pages show, read now, without the rest of env(): tests change them between cases, so the parse is
 * kept only while the variables it read are unchanged (siteUrl() is called for every listing a registry page names).
 */
export function pageSettings(): PageSettings {
  const raw = JSON.stringify(PAGE_SETTING_NAMES.map((name) => process.env[name] ?? null));
  if (pageSettingsRead?.raw !== raw) pageSettingsRead = { raw, settings: parseWith(pageSettingsSchema, process.env) };
  return pageSettingsRead.settings;
}

let cached: Env | undefined;

/** Validated environment; throws on first use with the name of every bad variable. */
export function env(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/** Re-reads process.env (tests change variables between cases). */
export function reloadEnv(): Env {
  cached = undefined;
  return env();
}
