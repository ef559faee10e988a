// Every table, index and enum. One schema and one migrations folder serve PGlite and PostgreSQL.
import { sql } from "drizzle-orm";
import {
  MAX_OWNER_PAID_TOOLS,
  type AcceptedPayment,
  type ListingSource,
  type PaidReason,
  type PricedItem,
  type ProbedTool,
} from "@agora-mcp/protocol";
import type { ProbeResult } from "./probe-result";
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgEnum,
  pgSequence,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from "drizzle-orm/pg-core";

export const reviewStatus = pgEnum("review_status", ["pending", "approved", "rejected"]);
export const userRole = pgEnum("user_role", ["user", "admin"]);

export const users = pgTable(
  "users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    email: text("email"),
    name: text("name"),
    // When the owner proved the address: a provider's verified email, the verification link, or a reset link.
    // An unverified address counts for nothing (not admin, not a claim on the address).
    emailVerifiedAt: timestamp("email_verified_at", { withTimezone: true }),
    // Display only: logins can be renamed and taken over, so nothing is decided on them.
    githubLogin: text("github_login"),
    // GitHub's numeric user id (never reused), copied from the account link for the admin check.
    githubId: text("github_id"),
    image: text("image"),
    passwordHash: text("password_hash"),
    role: userRole("role").notNull().default("user"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // One proven holder per address, and one password account per address (sign-in is by address); an
    // unverified claim blocks neither the address's owner signing in with GitHub nor anyone else.
    uniqueIndex("users_verified_email_key")
      .on(sql`lower(${t.email})`)
      .where(sql`${t.emailVerifiedAt} is not null`),
    uniqueIndex("users_password_email_key")
      .on(sql`lower(${t.email})`)
      .where(sql`${t.passwordHash} is not null`),
    index("users_email_idx").on(sql`lower(${t.email})`),
    index("users_github_login_idx").on(sql`lower(${t.githubLogin})`),
    uniqueIndex("users_github_id_key").on(t.githubId),
  ],
);

/**
 * The tools a listing's owner named as paid, for servers whose tools/list says nothing about payment: every check
 * calls each of them unpaid to read its price (a paid tool asks before it runs), which the owner agreed to at
 * `paid_tools_consented_at`. Never names without that consent, never more than MAX_OWNER_PAID_TOOLS.
 */
function ownerPaidToolColumns() {
  return {
    paidTools: text("paid_tools")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    paidToolsConsentedAt: timestamp("paid_tools_consented_at", { withTimezone: true }),
  };
}

function ownerPaidToolChecks(table: string, t: { paidTools: AnyPgColumn; paidToolsConsentedAt: AnyPgColumn }) {
  return [
    check(`${table}_paid_tools_bound`, sql`cardinality(${t.paidTools}) <= ${sql.raw(String(MAX_OWNER_PAID_TOOLS))}`),
    check(`${table}_paid_tools_consent`, sql`cardinality(${t.paidTools}) = 0 or ${t.paidToolsConsentedAt} is not null`),
  ];
}

export const listings = pgTable(
  "listings",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    slug: text("slug").notNull(),
    name: text("name").notNull(),
    description: text("description").notNull(),
    // Normalised category names; the API joins them into the spec's comma-separated string.
    categories: text("categories")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    // USD per call of the cheapest priced item; null or 0 means free (spec: a falsy price is free).
    // Up to 999,999,999.999999: 15 significant digits, so every stored price reads back exactly as a JS number
    // (lib/probe refuses larger amounts rather than overflow the column).
    price: numeric("price", { precision: 15, scale: 6, mode: "number" }),
    verified: boolean("verified").notNull().default(false),
    serverUrl: text("server_url").notNull(),
    websiteUrl: text("website_url"),
    status: reviewStatus("status").notNull().default("pending"),
    rejectionReason: text("rejection_reason"),
    // What the reviewer approved, as the probe read it then: later probes are compared against it (drift).
    approvedTerms: jsonb("approved_terms").$type<ApprovedTerms>(),
    // When a reviewer (or ingestion, for an import) last approved it; null while it never was. Who named a wallet
    // first is decided among approved listings by this (and by when each wallet entered their approved terms).
    approvedAt: timestamp("approved_at", { withTimezone: true }),
    submitterId: uuid("submitter_id").references(() => users.id, { onDelete: "set null" }),
    // Lower-cased name, description and categories, written with the row; served by a trigram index.
    searchText: text("search_text").notNull(),
    // Bumped by every owner edit: a review decision names the revision the reviewer saw (no bait-and-switch).
    revision: integer("revision").notNull().default(1),
    // Where the listing came from (LISTING_SOURCES): submitted here ('agora') or found by ingestion, with its name
    // and entry upstream. Typed, not a database enum: the values are named once, in @agora-mcp/protocol.
    source: text("source").$type<ListingSource>().notNull().default("agora"),
    upstreamName: text("upstream_name"),
    upstreamUrl: text("upstream_url"),
    // The upstream entry's status for an imported listing ('active', 'deprecated': shown with a notice,
    // 'deleted': hidden); null for a listing submitted here.
    upstreamStatus: text("upstream_status"),
    // An imported listing belongs to nobody (submitter null) until its publisher claims its namespace
    // (lib/claims); then the claimant is its submitter and may edit it like a submitted one.
    claimedAt: timestamp("claimed_at", { withTimezone: true }),
    // Fields the owner changed by an edit ('name', 'description', 'websiteUrl'): an upstream update of an
    // imported listing leaves them as the owner wrote them.
    editedFields: text("edited_fields")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    // The name the registry API lists an imported registry entry under (its upstream name, or that name with a
    // suffix when another listing had it first); null for the rest, named "<namespace>/<slug>". Stored, never
    // derived, so a name resolves whatever the slug; unique, so no name is listed twice (lib/ingest/naming.ts).
    registryName: text("registry_name"),
    // When the registry status /v0.1 serves (active, deprecated, deleted) last changed: set by a trigger on every
    // change of status or upstream status (migration 0029), which moves updatedAt with it, so an incremental
    // reader of /v0.1 sees every removal and deprecation whichever path made it.
    statusChangedAt: timestamp("status_changed_at", { withTimezone: true }),
    // An imported listing's server.json as its upstream gave it (packages, repository, version, websiteUrl and the
    // upstream's own _meta entries), served again in /v0.1; null for a listing submitted here.
    upstreamServer: jsonb("upstream_server").$type<UpstreamServerJson>(),
    // When the entry was first published where it came from (its upstream's publishedAt); null: createdAt.
    publishedAt: timestamp("published_at", { withTimezone: true }),
    // Where the listing was first published and every registry it passed through on its way here (lib/ingest/provenance.ts).
    provenance: jsonb("provenance").$type<ProvenanceChain>(),
    ...ownerPaidToolColumns(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    ...ownerPaidToolChecks("listings", t),
    uniqueIndex("listings_slug_key").on(t.slug),
    uniqueIndex("listings_server_url_key").on(t.serverUrl),
    index("listings_status_name_idx").on(t.status, sql`lower(${t.name})`, t.id),
    index("listings_status_created_idx").on(t.status, t.createdAt.desc(), t.id),
    index("listings_status_verified_idx").on(t.status, t.verified.desc(), sql`lower(${t.name})`, t.id),
    index("listings_categories_idx").using("gin", t.categories),
    index("listings_search_trgm_idx").using("gin", sql`${t.searchText} gin_trgm_ops`),
    // Name matches for text search, so a word common in descriptions cannot crowd a name match out of the ranked window.
    index("listings_name_trgm_idx")
      .using("gin", sql`lower(${t.name}) gin_trgm_ops`)
      .where(sql`${t.status} = 'approved'`),
    index("listings_submitter_idx").on(t.submitterId),
    // Claiming finds a namespace's imported listings by the part of the upstream name before the '/'.
    index("listings_upstream_namespace_idx")
      .on(sql`lower(split_part(${t.upstreamName}, '/', 1))`)
      .where(sql`${t.upstreamName} is not null`),
    uniqueIndex("listings_registry_name_key").on(t.registryName),
  ],
);

/** What a check of a pending edit's server read (lib/probe's result, kept with the edit, never with the listing). */
export type EditCheck = Omit<ProbeResult, "checkedAt"> & { checkedAt: string };

/**
 * An owner's edit of an approved listing, waiting for review: the listing keeps being served as approved while it
 * waits (one row per listing; a second edit replaces the first). Its own check is kept here, apart from the
 * listing's checks, so an unreviewed server never sets the listing's price, badge or payees. Approving applies it
 * to the listing and deletes the row; rejecting keeps it, with the reason, until the owner edits again.
 */
export const listingEdits = pgTable(
  "listing_edits",
  {
    listingId: uuid("listing_id")
      .primaryKey()
      .references(() => listings.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description").notNull(),
    categories: text("categories")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    serverUrl: text("server_url").notNull(),
    websiteUrl: text("website_url"),
    // The listing's revision once applied: above the listing's, bumped by each replacing edit (a reviewer decides
    // the revision the page showed, never a later one).
    revision: integer("revision").notNull(),
    status: reviewStatus("status").notNull().default("pending"),
    rejectionReason: text("rejection_reason"),
    check: jsonb("check").$type<EditCheck>(),
    // The tools the edit names as paid and when the owner agreed to their unpaid calls; the edit's check reads them.
    ...ownerPaidToolColumns(),
    submittedAt: timestamp("submitted_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => ownerPaidToolChecks("listing_edits", t),
);

/**
 * Bumped by statement triggers on every write to listings, listing_probes and listing_drift (migration 0009):
 * the search cache keys its entries by it, so no process serves a result older than the last write it can see.
 */
export const catalogueVersion = pgSequence("catalogue_version");

/**
 * Every distinct word (3–40 letters, digits or '_', not all digits) of any listing's search text, kept by a row
 * trigger on listings (migration 0009). A misspelled query word is corrected against this vocabulary, whose
 * size follows the language of the catalogue rather than its row count.
 */
export const searchWords = pgTable("search_words", { word: text("word").primaryKey() }, (t) => [
  index("search_words_trgm_idx").using("gin", sql`${t.word} gin_trgm_ops`),
]);

export const newsletterSubscribers = pgTable(
  "newsletter_subscribers",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    email: text("email").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("newsletter_subscribers_email_key").on(sql`lower(${t.email})`)],
);

// A sign-in identity at an OAuth provider (GitHub, Google); the provider's stable id, never the login name.
export const accounts = pgTable(
  "accounts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    provider: text("provider").notNull(),
    providerAccountId: text("provider_account_id").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("accounts_provider_account_key").on(t.provider, t.providerAccountId),
    index("accounts_user_idx").on(t.userId),
  ],
);

// The columns every hashed-token table shares: the owner (rows go with the user), the SHA-256 of the secret
// (the secret itself is never stored), when it was issued and when it stops working.
function hashedTokenColumns() {
  return {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  };
}

// Browser sessions. The Auth.js cookie carries a random secret; only its SHA-256 is stored, and deleting
// the row ends the session on the next request.
export const sessions = pgTable("sessions", hashedTokenColumns(), (t) => [
  uniqueIndex("sessions_token_hash_key").on(t.tokenHash),
  index("sessions_user_idx").on(t.userId),
]);

// `sign_in`: issued by the JSON sign-in calls; `personal`: created by the user on /account.
export const apiTokenKind = pgEnum("api_token_kind", ["sign_in", "personal"]);

// Bearer tokens (`agora_…`). Only the SHA-256 of the token is stored; `prefix` is what the user sees again.
export const apiTokens = pgTable(
  "api_tokens",
  {
    ...hashedTokenColumns(),
    kind: apiTokenKind("kind").notNull(),
    name: text("name").notNull(),
    prefix: text("prefix").notNull(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("api_tokens_token_hash_key").on(t.tokenHash),
    index("api_tokens_user_idx").on(t.userId, t.createdAt.desc()),
  ],
);

// Email verification links for password accounts: stored as SHA-256, single use, short-lived; each names
// the address it proves, so a link mailed before an address change proves nothing about the new one.
export const emailVerificationTokens = pgTable(
  "email_verification_tokens",
  {
    ...hashedTokenColumns(),
    email: text("email").notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("email_verification_tokens_token_hash_key").on(t.tokenHash),
    index("email_verification_tokens_user_idx").on(t.userId),
  ],
);

// Password reset links: stored as SHA-256, single use (used_at), short-lived (expires_at).
export const passwordResetTokens = pgTable(
  "password_reset_tokens",
  {
    ...hashedTokenColumns(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("password_reset_tokens_token_hash_key").on(t.tokenHash),
    index("password_reset_tokens_user_idx").on(t.userId),
  ],
);

// Fixed-window counters shared by every app instance (rate limits live in the database, not in memory).
export const rateLimits = pgTable(
  "rate_limits",
  {
    key: text("key").primaryKey(),
    count: integer("count").notNull(),
    resetAt: timestamp("reset_at", { withTimezone: true }).notNull(),
  },
  // Expired rows are purged in batches (lib/rate-limit.ts).
  (t) => [index("rate_limits_reset_at_idx").on(t.resetAt)],
);

// One row per probe of a listing's MCP server (lib/probe): the history behind Verified, price and uptime.
export const listingProbes = pgTable(
  "listing_probes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    listingId: uuid("listing_id")
      .notNull()
      .references(() => listings.id, { onDelete: "cascade" }),
    checkedAt: timestamp("checked_at", { withTimezone: true }).notNull().defaultNow(),
    // What was probed: the listing's server URL and revision when the probe read them. An approval takes its
    // terms only from a probe of the revision it approves (null: a probe from before this was recorded).
    serverUrl: text("server_url"),
    revision: integer("revision"),
    reachable: boolean("reachable").notNull(),
    protocolVersion: text("protocol_version"),
    serverName: text("server_name"),
    serverVersion: text("server_version"),
    tools: jsonb("tools").$type<ProbedTool[]>().notNull().default([]),
    pricedItems: jsonb("priced_items").$type<PricedItem[]>().notNull().default([]),
    paymentMethods: jsonb("payment_methods").$type<AcceptedPayment[]>().notNull().default([]),
    latencyMs: integer("latency_ms"),
    // A fixed sentence per error class (never the server's own text), the class, and the HTTP status if any.
    error: text("error"),
    errorClass: text("error_class"),
    httpStatus: integer("http_status"),
    quirks: jsonb("quirks").$type<string[]>().notNull().default([]),
    verifiable: boolean("verifiable").notNull().default(false),
    // This check of an approved listing found terms that wait for review before any surface shows them (a price
    // rise past the review factor, another payee): it counts for reachability and history, never for the price,
    // payee, tools or badge served (db/queries/probes.ts latestProbeFact serves the last terms not held).
    termsHeld: boolean("terms_held").notNull().default(false),
  },
  (t) => [index("listing_probes_listing_checked_idx").on(t.listingId, t.checkedAt.desc())],
);

/**
 * Prices, payee wallets and tool names a listing was approved with; `walletsSince`: for each payee wallet of those
 * terms (payment methods and x402 payTo, lower-cased), when an approval first took it in, kept across later approvals
 * that still name it (absent in terms approved before it was recorded).
 */
export type ApprovedTerms = {
  prices: { name: string; amount: number; currency: string }[];
  wallets: AcceptedPayment[];
  tools: string[];
  walletsSince?: Record<string, string>;
};

export const driftKind = pgEnum("drift_kind", ["price", "wallet", "tools"]);

// A probe found something other than what was approved: kept with both values, once per distinct change.
export const listingDrift = pgTable(
  "listing_drift",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    listingId: uuid("listing_id")
      .notNull()
      .references(() => listings.id, { onDelete: "cascade" }),
    probeId: uuid("probe_id").references(() => listingProbes.id, { onDelete: "set null" }),
    kind: driftKind("kind").notNull(),
    // The priced item or payment method that changed; empty for the tool set as a whole.
    subject: text("subject").notNull(),
    approved: text("approved").notNull(),
    found: text("found").notNull(),
    // The change was held for review (a price rise past the review factor, another payee): the approved terms stayed
    // on every surface until a reviewer approved it.
    held: boolean("held").notNull().default(false),
    detectedAt: timestamp("detected_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("listing_drift_listing_idx").on(t.listingId, t.detectedAt.desc()),
    // Tool lists can be long: the same change is recognised by a digest, not by a b-tree over the text.
    uniqueIndex("listing_drift_change_key").on(
      t.listingId,
      t.kind,
      sql`md5(${t.subject} || chr(31) || ${t.approved} || chr(31) || ${t.found})`,
    ),
  ],
);

// "hid a buyer review": an admin hid a buyer review of the listing (buyer_review_id names it), kept here
// with who and why like every other moderation decision.
// "approved an edit" / "rejected an edit": a reviewer decided an owner's pending edit of an approved listing
// (listing_edits), which stayed in the catalogue meanwhile.
export const reviewDecision = pgEnum("review_decision", [
  "approved",
  "rejected",
  "hid a buyer review",
  "approved an edit",
  "rejected an edit",
]);

// Every moderation decision, kept as history: who decided what, when and why.
export const listingReviews = pgTable(
  "listing_reviews",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    listingId: uuid("listing_id")
      .notNull()
      .references(() => listings.id, { onDelete: "cascade" }),
    reviewerId: uuid("reviewer_id").references(() => users.id, { onDelete: "set null" }),
    decision: reviewDecision("decision").notNull(),
    reason: text("reason"),
    buyerReviewId: uuid("buyer_review_id").references(() => buyerReviews.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("listing_reviews_listing_idx").on(t.listingId, t.createdAt.desc())],
);

// Work that one app instance at a time does on a schedule (re-verifying listings). An instance runs a job
// only after claiming it here: due (next_run_at passed) and not held by another (lease_until passed).
export const scheduledJobs = pgTable("scheduled_jobs", {
  name: text("name").primaryKey(),
  holder: text("holder"),
  leaseUntil: timestamp("lease_until", { withTimezone: true }).notNull(),
  nextRunAt: timestamp("next_run_at", { withTimezone: true }).notNull(),
  lastStartedAt: timestamp("last_started_at", { withTimezone: true }),
  lastFinishedAt: timestamp("last_finished_at", { withTimezone: true }),
  runs: integer("runs").notNull().default(0),
});

// Ingestion (lib/ingest): each configured source's progress, so a run resumes where a crash left it and a later
// run asks only for what changed since the high-water mark.
export const ingestSources = pgTable("ingest_sources", {
  // `kind=baseUrl`, as INGEST_SOURCES names it.
  key: text("key").primaryKey(),
  highWaterMark: timestamp("high_water_mark", { withTimezone: true }),
  // The next page of a run in progress (null between runs).
  cursor: text("cursor"),
  runStartedAt: timestamp("run_started_at", { withTimezone: true }),
  lastRunAt: timestamp("last_run_at", { withTimezone: true }),
  lastCounts: jsonb("last_counts").$type<Record<string, number>>(),
  lastErrors: jsonb("last_errors").$type<string[]>().notNull().default([]),
});

/** A tool an upstream entry names as paid, and which kind of source named it. */
export type UpstreamPaidTool = { name: string; reason: Extract<PaidReason, "discovery" | "registry"> };

// A remote MCP server some source lists: a candidate for a listing once a check shows it is paid. Free and
// unreachable ones are remembered (and checked again later), not listed.
export const ingestedServers = pgTable(
  "ingested_servers",
  {
    remoteUrl: text("remote_url").primaryKey(),
    sourceKey: text("source_key").notNull(),
    upstreamName: text("upstream_name").notNull(),
    version: text("version"),
    title: text("title"),
    description: text("description").notNull().default(""),
    repositoryUrl: text("repository_url"),
    websiteUrl: text("website_url"),
    // active | deprecated | deleted, as the registry says.
    status: text("status").notNull().default("active"),
    upstreamUpdatedAt: timestamp("upstream_updated_at", { withTimezone: true }),
    // From another Agora's `_meta` (lib/ingest/agora-meta.ts): the listing's categories and when it was listed there.
    categories: text("categories")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    publishedAt: timestamp("published_at", { withTimezone: true }),
    // Tools an upstream entry names as paid (an x402 discovery entry's tool, a registry entry's _meta): every check
    // calls them unpaid to read their price, whatever the server's tools/list says (lib/ingest/paid-tool-names.ts).
    paidTools: jsonb("paid_tools").$type<UpstreamPaidTool[]>().notNull().default([]),
    // The entry's server.json as given and the registries it passed through (copied to its listing).
    upstreamServer: jsonb("upstream_server").$type<UpstreamServerJson>(),
    provenance: jsonb("provenance").$type<ProvenanceChain>(),
    lastCheckedAt: timestamp("last_checked_at", { withTimezone: true }),
    nextCheckAt: timestamp("next_check_at", { withTimezone: true }).notNull().defaultNow(),
    // What the last check found: paid (listed), or why not (lib/ingest/check-candidates.ts CANDIDATE_OUTCOMES).
    outcome: text("outcome"),
    listingId: uuid("listing_id").references(() => listings.id, { onDelete: "set null" }),
  },
  // By listing: every check of a listing reads the paid tools its candidates name.
  (t) => [index("ingested_servers_due_idx").on(t.nextCheckAt), index("ingested_servers_listing_idx").on(t.listingId)],
);

/** What an upstream said of an entry beyond Agora's own fields: served again as it was given. */
export type UpstreamServerJson = {
  version?: string;
  packages?: unknown[];
  repository?: Record<string, unknown>;
  websiteUrl?: string;
  /** The upstream's own `_meta` entries, under their keys (never Agora's own, which are written afresh). */
  _meta?: Record<string, unknown>;
};

/** One registry on an entry's way here: the first is where it was published, the last the source read here. */
export type ProvenanceHop = {
  kind: ListingSource;
  name: string;
  url: string;
  entryUrl: string | null;
  listingId?: string | null;
};
export type ProvenanceChain = ProvenanceHop[];

// Every version of an upstream entry ingestion has seen (GET /v0.1/servers/{name}/versions lists them), by source
// and name, whether or not it was the latest when seen.
export const upstreamVersions = pgTable(
  "upstream_versions",
  {
    sourceKey: text("source_key").notNull(),
    upstreamName: text("upstream_name").notNull(),
    version: text("version").notNull(),
    publishedAt: timestamp("published_at", { withTimezone: true }),
    server: jsonb("server").$type<UpstreamServerJson>().notNull(),
    firstSeenAt: timestamp("first_seen_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.sourceKey, t.upstreamName, t.version] })],
);

// When each cache tag was last revalidated by any instance (lib/cache/shared-tags.ts): instances that missed the
// notification (not listening at the time) catch up from here.
export const cacheTags = pgTable("cache_tags", {
  tag: text("tag").primaryKey(),
  revalidatedAt: timestamp("revalidated_at", { withTimezone: true }).notNull().defaultNow(),
});

// A sale read from the chain (lib/sales/indexer.ts): a token Transfer to a payee of the listing's latest check,
// paired with the payer's AuthorizationUsed (or x402's upto settlement) in the same transaction, or a payment
// channel's claim for that payee. Kept once per listing and log; the amount
// is exact (the token's smallest unit). Rows in the last blocks are re-read each run, so a reorg removes them.
export const listingSales = pgTable(
  "listing_sales",
  {
    listingId: uuid("listing_id")
      .notNull()
      .references(() => listings.id, { onDelete: "cascade" }),
    // CAIP-2, e.g. eip155:84532.
    network: text("network").notNull(),
    txHash: text("tx_hash").notNull(),
    logIndex: integer("log_index").notNull(),
    blockNumber: bigint("block_number", { mode: "bigint" }).notNull(),
    blockHash: text("block_hash").notNull(),
    blockTime: timestamp("block_time", { withTimezone: true }).notNull(),
    payer: text("payer").notNull(),
    payee: text("payee").notNull(),
    amount: numeric("amount", { precision: 78, scale: 0 }).notNull(),
    // How it was paid: exact (one call at its price), metered (x402 upto: what a call used, up to its maximum) or
    // channel (a payment channel's claim: what the buyer's calls since the last claim cost).
    kind: text("kind", { enum: ["exact", "metered", "channel"] })
      .notNull()
      .default("exact"),
    // What the listing asked for it, in token units: the price (exact), the maximum (metered) or the price of one
    // call (channel, of which the amount is a whole number of calls). Null for sales stored before it was kept.
    askedUnits: numeric("asked_units", { precision: 78, scale: 0 }),
  },
  (t) => [
    primaryKey({ columns: [t.network, t.txHash, t.logIndex, t.listingId] }),
    // A listing's last sale: one entry read, however many sales it has (its exact order, ties included). Also a
    // listing's sales newest first, where a reorg makes the roll-ups read a buyer's latest sale again.
    index("listing_sales_listing_last_idx").on(
      t.listingId,
      t.blockTime.desc(),
      t.blockNumber.desc(),
      t.logIndex.desc(),
    ),
    // The indexer's re-read of the last blocks of a network.
    index("listing_sales_network_block_idx").on(t.network, t.blockNumber),
    // Each run drops the sales of the excluded payers (the site's test-purchase wallet): an index range per payer,
    // not a scan of every sale of the network.
    index("listing_sales_network_payer_idx").on(t.network, sql`lower(${t.payer})`),
  ],
);

// The figures every surface shows, rolled up from listing_sales in the same transaction as each change to it
// (db/queries/sales-rollup.ts), so reading them costs a bounded number of rows however many sales a listing has.
// Days are UTC days; amounts stay exact (numeric, the token's smallest unit).
export const listingSalesDays = pgTable(
  "listing_sales_days",
  {
    listingId: uuid("listing_id")
      .notNull()
      .references(() => listings.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    sales: integer("sales").notNull(),
    volume: numeric("volume", { precision: 78, scale: 0 }).notNull(),
    // Buyers whose latest purchase from the listing fell on this day: summed over the days of a window, the window's
    // unique buyers (a buyer counts once, on their latest day), which a per-day distinct count could not give.
    lastBuyers: integer("last_buyers").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.listingId, t.day] }),
    // The listings with sales in the last 30 days and their usage (the popular order ranks them by it): an index-only
    // range over the window's days (it covers the counts it sums), not a scan of every day of every listing's history.
    index("listing_sales_days_day_idx").on(t.day, t.listingId, t.sales, t.lastBuyers),
  ],
);

// Each buyer of each listing: how many sales, and the UTC day of the latest (which day row counts them).
export const listingSalesBuyers = pgTable(
  "listing_sales_buyers",
  {
    listingId: uuid("listing_id")
      .notNull()
      .references(() => listings.id, { onDelete: "cascade" }),
    payer: text("payer").notNull(),
    sales: integer("sales").notNull(),
    lastDay: date("last_day", { mode: "string" }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.listingId, t.payer] }),
    index("listing_sales_buyers_last_day_idx").on(t.listingId, t.lastDay),
  ],
);

// All-time figures of each listing with sales: one row to read.
export const listingSalesTotals = pgTable("listing_sales_totals", {
  listingId: uuid("listing_id")
    .primaryKey()
    .references(() => listings.id, { onDelete: "cascade" }),
  sales: integer("sales").notNull(),
  buyers: integer("buyers").notNull(),
  volume: numeric("volume", { precision: 78, scale: 0 }).notNull(),
});

// How far the sales indexer has read each network: every block up to `block` is indexed, from `firstBlock` (where
// its first run started; null for cursors older than the column) on.
export const salesCursors = pgTable("sales_cursors", {
  network: text("network").primaryKey(),
  block: bigint("block", { mode: "bigint" }).notNull(),
  firstBlock: bigint("first_block", { mode: "bigint" }),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

// Every payee the indexer reads for a listing on a network. One that appears after the network's first run (a
// check found a new wallet) is back-filled: blocks fromBlock..toBlock (where the index started, up to the cursor
// when it appeared) are read for it alone, a bounded range per transaction, `nextBlock` the first not yet read.
export const salesPayees = pgTable(
  "sales_payees",
  {
    network: text("network").notNull(),
    listingId: uuid("listing_id")
      .notNull()
      .references(() => listings.id, { onDelete: "cascade" }),
    payee: text("payee").notNull(),
    fromBlock: bigint("from_block", { mode: "bigint" }).notNull(),
    toBlock: bigint("to_block", { mode: "bigint" }).notNull(),
    nextBlock: bigint("next_block", { mode: "bigint" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.network, t.listingId, t.payee] })],
);

// Agora's own test purchases from paid listings (lib/test-purchases): what was bought, what was paid and whether
// anything came back. A row is written with its reservation under the day's budget, before anything is signed.
export const testPurchaseOutcome = pgEnum("test_purchase_outcome", [
  "pending",
  "delivered",
  "not-delivered",
  "refused",
  "drift",
]);

export const testPurchases = pgTable(
  "test_purchases",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    listingId: uuid("listing_id")
      .notNull()
      .references(() => listings.id, { onDelete: "cascade" }),
    item: text("item").notNull(),
    // CAIP-2 id of the network paid on.
    network: text("network").notNull(),
    payTo: text("pay_to"),
    // The price in the token's smallest unit; counted against the day's budget while `money` says it may have moved.
    units: bigint("units", { mode: "bigint" })
      .notNull()
      .default(sql`0`),
    outcome: testPurchaseOutcome("outcome").notNull().default("pending"),
    // The purchase ledger's word on the money: reserved, paid, refused (nothing moved yet; still counted once signed,
    // since the server could settle it until it expires), disputed, unknown, job-pending…
    money: text("money").notNull().default("none"),
    transaction: text("transaction"),
    deliveredMs: integer("delivered_ms"),
    // A fixed-length sentence for the record (the server's own words clipped); never shown as HTML.
    note: text("note"),
    // The UTC day whose budget the amount counts against, and the wallet (lower-case address) whose budget it is.
    day: date("day", { mode: "string" })
      .notNull()
      .default(sql`(now() at time zone 'utc')::date`),
    wallet: text("wallet").notNull().default(""),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [index("test_purchases_listing_started_idx").on(t.listingId, t.startedAt.desc())],
);

// What each UTC day's test purchases have spent or hold reserved: one row a wallet a day, raised only by a conditional update
// that keeps it within the budget, so instances sharing the database cannot overspend it together.
// Per test wallet (its lower-case address): a new wallet (a new key, a sandbox restart) starts with its own budget.
// Rows from before wallets were told apart have the wallet ''.
export const testPurchaseSpending = pgTable(
  "test_purchase_spending",
  {
    wallet: text("wallet").notNull().default(""),
    day: date("day", { mode: "string" }).notNull(),
    spentUnits: bigint("spent_units", { mode: "bigint" })
      .notNull()
      .default(sql`0`),
  },
  (t) => [primaryKey({ columns: [t.wallet, t.day] })],
);

// Items an owner does not want bought by Agora's test purchases (say, one with side effects in the world).
export const testPurchaseExclusions = pgTable(
  "test_purchase_exclusions",
  {
    listingId: uuid("listing_id")
      .notNull()
      .references(() => listings.id, { onDelete: "cascade" }),
    item: text("item").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.listingId, t.item] })],
);

export type ListingRow = typeof listings.$inferSelect;
export type NewListingRow = typeof listings.$inferInsert;
export type User = typeof users.$inferSelect;
export type ListingProbe = typeof listingProbes.$inferSelect;
export type ListingEdit = typeof listingEdits.$inferSelect;
export type ApiToken = typeof apiTokens.$inferSelect;
export type ApiTokenKind = (typeof apiTokenKind.enumValues)[number];
export type ReviewStatus = (typeof reviewStatus.enumValues)[number];
export type ListingDrift = typeof listingDrift.$inferSelect;
export type DriftKind = (typeof driftKind.enumValues)[number];
export type ListingSale = typeof listingSales.$inferSelect;

// The columns a buyer's signed statement about one sale keeps (a review, a delivery receipt): the listing, and the
// sale as read from the chain.
function saleStatementColumns() {
  return {
    id: uuid("id").primaryKey().defaultRandom(),
    listingId: uuid("listing_id")
      .notNull()
      .references(() => listings.id, { onDelete: "cascade" }),
    chainId: integer("chain_id").notNull(),
    // Lower-case 0x hash; with the chain and the Transfer's log index, the sale.
    txHash: text("tx_hash").notNull(),
    logIndex: integer("log_index").notNull(),
    // Checksummed addresses.
    payer: text("payer").notNull(),
    payee: text("payee").notNull(),
    // Token units (USDC: 6 decimals), exact.
    amount: numeric("amount", { precision: 78, scale: 0, mode: "string" }).notNull(),
    blockNumber: bigint("block_number", { mode: "bigint" }).notNull(),
    paidAt: timestamp("paid_at", { withTimezone: true }).notNull(),
  };
}

// Buyer reviews (lib/buyer-reviews): a rating and plain text signed (EIP-712) by the wallet that paid one of the
// listing's sales, checked against the chain when it arrived. Amount, payer, payee and time are the chain's.
// One review per sale, ever: a revoked or hidden one keeps its sale.
export const buyerReviews = pgTable(
  "buyer_reviews",
  {
    ...saleStatementColumns(),
    rating: smallint("rating").notNull(),
    text: text("text").notNull(),
    // keccak256 of the text's UTF-8 bytes (the feedback record's feedbackHash).
    textHash: text("text_hash").notNull(),
    signature: text("signature").notNull(),
    signedAt: timestamp("signed_at", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    revokeSignature: text("revoke_signature"),
    // Hidden by an admin (who and why are in listing_reviews too).
    hiddenAt: timestamp("hidden_at", { withTimezone: true }),
    hiddenBy: uuid("hidden_by").references(() => users.id, { onDelete: "set null" }),
    hiddenReason: text("hidden_reason"),
    // The listing owner's one answer.
    response: text("response"),
    respondedAt: timestamp("responded_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("buyer_reviews_sale_key").on(t.chainId, t.txHash, t.logIndex),
    index("buyer_reviews_listing_idx").on(t.listingId, t.createdAt.desc()),
  ],
);
export type BuyerReviewRow = typeof buyerReviews.$inferSelect;

// Buyers' signed delivery receipts: the wallet that paid a sale says whether the call delivered. One per sale (the
// unique sale key decides a race); the listing's delivery evidence counts them beside Agora's test purchases.
export const buyerReceipts = pgTable(
  "buyer_receipts",
  {
    ...saleStatementColumns(),
    // False: the buyer was charged and nothing good came back.
    delivered: boolean("delivered").notNull(),
    signature: text("signature").notNull(),
    signedAt: timestamp("signed_at", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("buyer_receipts_sale_key").on(t.chainId, t.txHash, t.logIndex),
    index("buyer_receipts_listing_idx").on(t.listingId, t.paidAt.desc()),
  ],
);
export type BuyerReceiptRow = typeof buyerReceipts.$inferSelect;
export type TestPurchase = typeof testPurchases.$inferSelect;
export type TestPurchaseOutcome = (typeof testPurchaseOutcome.enumValues)[number];

// One-time tokens for claiming a reverse-DNS namespace (`com.example`) by publishing the token at the domain
// (lib/claims): stored as SHA-256, bound to the account and the namespace, short-lived, single use.
export const claimTokens = pgTable(
  "claim_tokens",
  {
    ...hashedTokenColumns(),
    namespace: text("namespace").notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("claim_tokens_token_hash_key").on(t.tokenHash),
    index("claim_tokens_user_idx").on(t.userId, t.namespace),
  ],
);
