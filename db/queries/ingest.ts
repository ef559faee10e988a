// Ingestion's store: each source's progress and the remote servers the sources list (candidates).
import { and, asc, eq, inArray, lte, ne, sql } from "drizzle-orm";
import { IMPORT_SOURCES, type ImportSource } from "@agora-mcp/protocol";
import { ingestedServers, ingestSources, listings, type ListingRow, type UpstreamPaidTool } from "../schema";
import type { Db } from "../types";

type SourceState = typeof ingestSources.$inferSelect;
export type Candidate = typeof ingestedServers.$inferSelect;
type CandidateInput = Omit<
  typeof ingestedServers.$inferInsert,
  "lastCheckedAt" | "nextCheckAt" | "outcome" | "listingId"
>;

export async function sourceState(db: Db, key: string): Promise<SourceState> {
  await db.insert(ingestSources).values({ key }).onConflictDoNothing();
  const [row] = await db.select().from(ingestSources).where(eq(ingestSources.key, key));
  return row!;
}

/** Marks a run started (or resumed) and remembers the page it is on, so a crash resumes there. */
export async function saveProgress(
  db: Db,
  key: string,
  progress: { cursor: string | null; runStartedAt?: Date },
): Promise<void> {
  await db.update(ingestSources).set(progress).where(eq(ingestSources.key, key));
}

/**
 * Ends a run. A completed run advances the high-water mark and clears the cursor; an interrupted one keeps both
 * (the next run resumes at the cursor), unless `restart` says the cursor itself is bad (a cursor loop).
 */
export async function finishRun(
  db: Db,
  key: string,
  run: {
    highWaterMark: Date | null;
    counts: Record<string, number>;
    errors: string[];
    completed: boolean;
    restart?: boolean;
  },
) {
  await db
    .update(ingestSources)
    .set({
      ...(run.completed ? { cursor: null, runStartedAt: null, highWaterMark: run.highWaterMark } : {}),
      ...(!run.completed && run.restart ? { cursor: null, runStartedAt: null } : {}),
      lastRunAt: sql`now()`,
      lastCounts: run.counts,
      lastErrors: run.errors.slice(0, 20),
    })
    .where(eq(ingestSources.key, key));
}

const COMPARED = ["upstreamName", "version", "title", "description", "repositoryUrl", "websiteUrl", "status"] as const;
/** Rows per statement: a page of 1,000 servers × 20 remotes is 20,000 candidates, far past one statement's parameters. */
const BATCH = 500;

function sameUpstream(current: Candidate, input: CandidateInput): boolean {
  return (
    COMPARED.every((k) => (current[k] ?? null) === (input[k] ?? null)) &&
    (current.categories ?? []).join("\n") === (input.categories ?? []).join("\n") &&
    (current.publishedAt?.getTime() ?? null) === (input.publishedAt?.getTime() ?? null) &&
    samePaidTools(current.paidTools, input.paidTools ?? []) &&
    canonicalJson(current.upstreamServer ?? null) === canonicalJson(input.upstreamServer ?? null) &&
    canonicalJson(current.provenance ?? null) === canonicalJson(input.provenance ?? null)
  );
}

/** JSON with every object's keys in order: jsonb gives keys back in its own order, so a plain stringify differs. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : v,
  );
}

/** Names compared as one: case and trailing slashes aside. */
const sameName = (a: string, b: string) => a.replace(/\/+$/, "").toLowerCase() === b.replace(/\/+$/, "").toLowerCase();

/**
 * An entry older than what the candidate holds (an out-of-order page, a stale mirror) changes nothing, and at the same
 * time a deletion stands: an entry is never brought back from a deletion by a page that is not newer than it.
 */
function staleEntry(current: Candidate, input: CandidateInput): boolean {
  const held = current.upstreamUpdatedAt?.getTime();
  const given = input.upstreamUpdatedAt ? new Date(input.upstreamUpdatedAt).getTime() : undefined;
  if (held === undefined || given === undefined) return false;
  if (given < held) return true;
  return given === held && current.status === "deleted" && input.status !== "deleted";
}

const isDiscovery = (sourceKey: string) => sourceKey.startsWith("x402-discovery=");

const toolKey = (t: UpstreamPaidTool) => `${t.reason} ${t.name}`;
const samePaidTools = (a: UpstreamPaidTool[], b: UpstreamPaidTool[]) =>
  a.map(toolKey).sort().join("\n") === b.map(toolKey).sort().join("\n");

/**
 * The paid tools a candidate keeps when an entry it belongs to is written: the entry's own replace the ones its kind
 * of source named before, and the other kind's stay (a registry entry taking over a server a discovery list knew
 * keeps the tools the list named).
 */
function ownPaidTools(current: UpstreamPaidTool[], input: CandidateInput): UpstreamPaidTool[] {
  const reason = isDiscovery(input.sourceKey) ? "discovery" : "registry";
  return [...current.filter((t) => t.reason !== reason), ...(input.paidTools ?? [])];
}

/**
 * A discovery entry for a server another source holds adds the tools it names (a facilitator's evidence of paid
 * calls, whoever lists the server) and takes none away, so two sources never take turns rewriting them.
 */
async function addDiscoveredTools(db: Db, current: Candidate, input: CandidateInput): Promise<void> {
  if (!isDiscovery(input.sourceKey)) return;
  const added = (input.paidTools ?? []).filter((t) => !current.paidTools.some((c) => toolKey(c) === toolKey(t)));
  if (added.length === 0) return;
  await db
    .update(ingestedServers)
    .set({ paidTools: [...current.paidTools, ...added], nextCheckAt: sql`now()` })
    .where(eq(ingestedServers.remoteUrl, input.remoteUrl));
}

/**
 * Inserts or updates a candidate, writing only when something upstream changed: a second run over the same
 * pages writes nothing. A changed entry is due for a check again. One remote URL is one candidate whichever
 * sources list it: it belongs to the first source that found it, except that a registry entry (a name,
 * version, repository) takes over one only an x402 discovery list knew; another source's entry is "foreign"
 * and left alone, so two sources never take turns rewriting it. Within one registry it belongs to the first
 * name that listed it: anyone may publish a name in their own namespace whose remote is someone else's server,
 * and such an entry must not rename, deprecate or (by deleting itself) take down the listing of that server. Except
 * that a name whose namespace speaks for the remote's host (`speaksFor`, lib/claims: com.victim for
 * weather.victim.com) takes the remote over from one that does not (io.github.attacker), and is preferred to it
 * within one page. The paid tools an entry names are kept by the same rule (an entry another source or name holds
 * names none), except that a discovery list's tools are added to any candidate (ownPaidTools, addDiscoveredTools).
 */
type UpsertOutcome = "inserted" | "updated" | "unchanged" | "foreign";

/** Whether an entry's name speaks for its remote's host (decided in lib/claims; nothing does by default). */
type SpeaksFor = (entry: { upstreamName: string; remoteUrl: string }) => boolean;

/**
 * One page's candidates, BATCH at a time: one read and one insert of the new ones per batch, an update per changed
 * one. (One statement for a whole page of 20,000 remotes overflowed the stack building its parameters.)
 */
export async function upsertCandidates(
  db: Db,
  inputs: CandidateInput[],
  speaksFor: SpeaksFor = () => false,
): Promise<UpsertOutcome[]> {
  const outcomes: UpsertOutcome[] = [];
  for (let start = 0; start < inputs.length; start += BATCH)
    outcomes.push(...(await upsertBatch(db, inputs.slice(start, start + BATCH), speaksFor)));
  return outcomes;
}

async function upsertBatch(db: Db, inputs: CandidateInput[], speaksFor: SpeaksFor): Promise<UpsertOutcome[]> {
  if (inputs.length === 0) return [];
  const urls = [...new Set(inputs.map((i) => i.remoteUrl))];
  const current = new Map(
    (await db.select().from(ingestedServers).where(inArray(ingestedServers.remoteUrl, urls))).map((row) => [
      row.remoteUrl,
      row,
    ]),
  );
  // Of a batch's entries for one new remote: the first whose name speaks for its host, else the first.
  const chosen = new Map<string, CandidateInput>();
  for (const input of inputs) {
    const held = chosen.get(input.remoteUrl);
    if (!held || (!speaksFor(held) && speaksFor(input))) chosen.set(input.remoteUrl, input);
  }
  const fresh = [...chosen.values()].filter((input) => !current.has(input.remoteUrl));
  const inserted = new Set(
    fresh.length
      ? (
          await db
            .insert(ingestedServers)
            .values(fresh)
            .onConflictDoNothing()
            .returning({ url: ingestedServers.remoteUrl })
        ).map((r) => r.url)
      : [],
  );
  const outcomes: UpsertOutcome[] = [];
  for (const input of inputs) {
    const row = current.get(input.remoteUrl);
    if (!row) outcomes.push(inserted.delete(input.remoteUrl) ? "inserted" : "unchanged");
    else outcomes.push(await updateCandidate(db, row, input, speaksFor));
  }
  return outcomes;
}

export async function upsertCandidate(db: Db, input: CandidateInput): Promise<UpsertOutcome> {
  return (await upsertCandidates(db, [input]))[0]!;
}

async function updateCandidate(
  db: Db,
  current: Candidate,
  input: CandidateInput,
  speaksFor: SpeaksFor,
): Promise<UpsertOutcome> {
  if (current.sourceKey !== input.sourceKey && !(isDiscovery(current.sourceKey) && !isDiscovery(input.sourceKey))) {
    await addDiscoveredTools(db, current, input);
    return "foreign";
  }
  const renamed =
    current.sourceKey === input.sourceKey &&
    !isDiscovery(input.sourceKey) &&
    !sameName(current.upstreamName, input.upstreamName);
  if (renamed && !(speaksFor(input) && !speaksFor(current))) return "foreign";
  if (current.sourceKey === input.sourceKey && staleEntry(current, input)) return "unchanged";
  const paidTools = ownPaidTools(current.paidTools, input);
  if (current.sourceKey === input.sourceKey && sameUpstream(current, { ...input, paidTools })) return "unchanged";
  await db
    .update(ingestedServers)
    .set({ ...input, paidTools, nextCheckAt: sql`now()` })
    .where(eq(ingestedServers.remoteUrl, input.remoteUrl));
  // An imported listing shows its upstream's latest word (a deprecation notice, a new version, a new source), and
  // says it changed (an incremental reader of /v0.1 sees it; a status change also moves it by trigger).
  await db
    .update(listings)
    .set({
      upstreamStatus: input.status ?? "active",
      upstreamServer: input.upstreamServer ?? null,
      provenance: input.provenance ?? null,
      ...(input.publishedAt ? { publishedAt: input.publishedAt } : {}),
      updatedAt: sql`now()`,
      ...(current.sourceKey !== input.sourceKey || renamed
        ? {
            source: sourceKind(input.sourceKey),
            upstreamName: input.upstreamName,
            upstreamUrl: upstreamEntryUrl(input.sourceKey, input.upstreamName),
          }
        : {}),
    })
    .where(and(eq(listings.serverUrl, input.remoteUrl), ne(listings.source, "agora")));
  return "updated";
}

/** Where a person can read the upstream entry: the registry's latest version of the name, or the discovery list. */
export function upstreamEntryUrl(sourceKey: string, upstreamName: string): string {
  const baseUrl = sourceKey.slice(sourceKey.indexOf("=") + 1);
  if (isDiscovery(sourceKey)) return `${baseUrl}/discovery/resources?type=mcp`;
  return `${baseUrl}/v0.1/servers/${encodeURIComponent(upstreamName)}/versions/latest`;
}

/** The listing source a source key stands for (one of IMPORT_SOURCES: keys are `kind=baseUrl`, from lib/config/ingest-sources.ts). */
export function sourceKind(sourceKey: string): ImportSource {
  const kind = IMPORT_SOURCES.find((k) => sourceKey.startsWith(`${k}=`));
  if (!kind) throw new Error(`not a source key: ${sourceKey.slice(0, 100)}`);
  return kind;
}

/** Candidates due for a check, never-checked first; deleted ones are never checked. */
export async function dueCandidates(db: Db, now: Date, limit: number): Promise<Candidate[]> {
  return db
    .select()
    .from(ingestedServers)
    .where(and(lte(ingestedServers.nextCheckAt, now), ne(ingestedServers.status, "deleted")))
    .orderBy(sql`${ingestedServers.lastCheckedAt} asc nulls first`, asc(ingestedServers.remoteUrl))
    .limit(limit);
}

export async function recordCandidateCheck(
  db: Db,
  remoteUrl: string,
  check: { outcome: string; nextCheckAt: Date; listingId?: string | null },
) {
  await db
    .update(ingestedServers)
    .set({
      outcome: check.outcome,
      lastCheckedAt: sql`now()`,
      nextCheckAt: check.nextCheckAt,
      ...(check.listingId !== undefined ? { listingId: check.listingId } : {}),
    })
    .where(eq(ingestedServers.remoteUrl, remoteUrl));
}

const DELETED_UPSTREAM = "Deleted upstream.";

/** An upstream entry was deleted: its imported listing leaves every surface (kept, so its history stays). */
export async function hideImportedListing(db: Db, remoteUrl: string): Promise<boolean> {
  const hidden = await db
    .update(listings)
    .set({
      status: "rejected",
      rejectionReason: DELETED_UPSTREAM,
      upstreamStatus: "deleted",
      verified: false,
      updatedAt: sql`now()`,
    })
    .where(and(eq(listings.serverUrl, remoteUrl), ne(listings.source, "agora"), ne(listings.status, "rejected")))
    .returning({ id: listings.id });
  return hidden.length > 0;
}

/**
 * An upstream entry deleted before is active (or deprecated) again, by a newer entry than its deletion: the listing
 * ingestion hid comes back. One an admin rejected for a reason of their own stays rejected.
 */
export async function restoreImportedListing(
  db: Db,
  remoteUrl: string,
  status: "active" | "deprecated",
): Promise<boolean> {
  const restored = await db
    .update(listings)
    .set({ status: "approved", rejectionReason: null, upstreamStatus: status, updatedAt: sql`now()` })
    .where(
      and(
        eq(listings.serverUrl, remoteUrl),
        ne(listings.source, "agora"),
        eq(listings.status, "rejected"),
        inArray(listings.rejectionReason, [DELETED_UPSTREAM, "Deleted from the MCP Registry."]),
      ),
    )
    .returning({ id: listings.id });
  return restored.length > 0;
}

/** Of these ids, those that are listings here (an entry coming back through a loop of registries names one). */
export async function heldListingIds(db: Db, ids: string[]): Promise<Set<string>> {
  const uuids = ids.filter((id) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id));
  if (uuids.length === 0) return new Set();
  return new Set(
    (await db.select({ id: listings.id }).from(listings).where(inArray(listings.id, uuids))).map((r) => r.id),
  );
}

/** Where a listing came from: submitted here, or found upstream (its name and entry there, and the registries it came through). */
export async function listingProvenance(
  db: Db,
  listingId: string,
): Promise<Pick<ListingRow, "source" | "upstreamName" | "upstreamUrl" | "upstreamStatus" | "provenance"> | null> {
  const [row] = await db
    .select({
      source: listings.source,
      upstreamName: listings.upstreamName,
      upstreamUrl: listings.upstreamUrl,
      upstreamStatus: listings.upstreamStatus,
      provenance: listings.provenance,
    })
    .from(listings)
    .where(eq(listings.id, listingId));
  return row ?? null;
}

/** Every source's state, for the admin view. */
export async function allSourceStates(db: Db): Promise<SourceState[]> {
  return db.select().from(ingestSources).orderBy(asc(ingestSources.key));
}

/** Per source: how many candidates it knows, how many are paid, listed, checked and not paid (any other outcome), and deleted upstream. */
type CandidateTally = {
  sourceKey: string;
  candidates: number;
  paid: number;
  listed: number;
  unpaid: number;
  deleted: number;
};

export async function candidateTallies(db: Db): Promise<CandidateTally[]> {
  const n = (condition: ReturnType<typeof sql>) => sql<number>`(count(*) filter (where ${condition}))::int`;
  const rows = await db
    .select({
      sourceKey: ingestedServers.sourceKey,
      candidates: sql<number>`count(*)::int`,
      paid: n(sql`${ingestedServers.outcome} = 'paid'`),
      listed: n(sql`${ingestedServers.listingId} is not null`),
      unpaid: n(sql`${ingestedServers.outcome} <> 'paid'`),
      deleted: n(sql`${ingestedServers.status} = 'deleted'`),
    })
    .from(ingestedServers)
    .groupBy(ingestedServers.sourceKey);
  return rows.map((r) => ({
    sourceKey: r.sourceKey,
    candidates: Number(r.candidates),
    paid: Number(r.paid),
    listed: Number(r.listed),
    unpaid: Number(r.unpaid),
    deleted: Number(r.deleted),
  }));
}
