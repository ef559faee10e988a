// One run over an MCP Registry source, as the registry asks aggregators to read it: every page the first
// time, then only what changed since the last run's high-water mark. Resumable: the page cursor is saved after
// each page, and re-reading a page writes nothing new. Bounded: one page in memory at a time, at most
// MAX_PAGES_PER_RUN pages, and a set of the names and cursors this run has seen (at most 10,000 names). Status
// travels both ways: deleted upstream hides the listing, deprecated marks it, active again (by a newer entry than
// the deletion) brings it back; an older entry than the one held changes nothing.
import {
  finishRun,
  heldListingIds,
  hideImportedListing,
  restoreImportedListing,
  saveProgress,
  sourceState,
  upsertCandidates,
} from "@/db/queries/ingest";
import { recordUpstreamVersions } from "@/db/queries/upstream-versions";
import { nameCoversServer } from "@/lib/claims/covered";
import { refreshImportedListing } from "@/db/queries/listing-write";
import type { Db } from "@/db/types";
import { logWarn } from "@/lib/log";
import type { FetchLike } from "@/lib/ssrf";
import { importedListingText } from "./listing-text";
import { findSafeFetchError } from "@/lib/ssrf";
import { fetchRegistryPage, pageUrl, type RegistryPage, type RegistryServer } from "./registry-client";
import { loopLine, provenanceOf } from "./provenance";
import { errorText, withOneRetry } from "./retry";
import type { IngestSource } from "@/lib/config/ingest-sources";

type RegistryCounts = {
  pages: number;
  seen: number;
  notLatest: number;
  noRemote: number;
  malformed: number;
  duplicateName: number;
  htmlStripped: number;
  /** Entries whose name, title or description held bidi or zero-width characters (taken out). */
  invisibleStripped: number;
  candidates: number;
  /** Paid tools named in the `_meta` of the entries written (lib/ingest/paid-tool-names.ts). */
  namedTools: number;
  written: number;
  merged: number;
  hidden: number;
  /** Listings brought back: deleted upstream before, active again by a newer entry. */
  restored: number;
  /** Entries that came back through a loop of registries (this Agora's own listings, read from a registry that read them here). */
  loops: number;
};

export type RegistryRun = { counts: RegistryCounts; errors: string[]; completed: boolean };

/** A run reads at most this many pages (10,000 servers); the next run resumes from the saved cursor. */
const MAX_PAGES_PER_RUN = 100;
/** A page past the size cap is asked for again this small, then smaller, so a few huge entries never stick a source. */
const SMALLER_PAGES = [10, 1];

const tooLarge = (error: unknown) => findSafeFetchError(error)?.code === "response_too_large";

/** The page at `cursor`: asked for once more after a failure, and in smaller pages when it is past the size cap. */
async function readPage(
  fetch: FetchLike,
  source: IngestSource,
  cursor: string | null,
  since: Date | null,
  retryDelayMs: number,
): Promise<RegistryPage> {
  try {
    return await withOneRetry(() => fetchRegistryPage(fetch, pageUrl(source.baseUrl, cursor, since)), retryDelayMs);
  } catch (error) {
    if (!tooLarge(error)) throw error;
    for (const limit of SMALLER_PAGES) {
      try {
        return await fetchRegistryPage(fetch, pageUrl(source.baseUrl, cursor, since, limit));
      } catch (smaller) {
        if (!tooLarge(smaller) || limit === SMALLER_PAGES.at(-1)) throw smaller;
      }
    }
    throw error;
  }
}

/** A page's latest servers with remotes, written as one batch of candidates. */
async function ingestServers(
  db: Db,
  source: IngestSource,
  servers: RegistryServer[],
  counts: RegistryCounts,
): Promise<void> {
  const remotes = servers.flatMap((server) => server.remotes.map((remote) => ({ server, remote })));
  counts.candidates += remotes.length;
  for (const server of servers) counts.namedTools += server.paidTools.length;
  const outcomes = await upsertCandidates(
    db,
    remotes.map(({ server, remote }) => ({
      remoteUrl: remote.url,
      sourceKey: source.key,
      upstreamName: server.name,
      version: server.version,
      title: server.title,
      description: server.description,
      repositoryUrl: server.repositoryUrl,
      websiteUrl: server.websiteUrl,
      status: server.status,
      upstreamUpdatedAt: server.updatedAt,
      categories: server.agora?.categories ?? [],
      publishedAt: server.publishedAt,
      paidTools: server.paidTools,
      upstreamServer: server.upstreamServer,
      provenance: provenanceOf(source, server),
    })),
    // A name whose namespace covers the remote's host takes the remote from one that does not (lib/claims).
    (entry) => nameCoversServer({ upstreamName: entry.upstreamName, serverUrl: entry.remoteUrl }),
  );
  for (const [i, outcome] of outcomes.entries()) {
    if (outcome === "foreign") counts.merged++;
    else if (outcome !== "unchanged") counts.written++;
    // Only the source a candidate belongs to can take its listing down.
    const { server, remote } = remotes[i]!;
    // An upstream change reaches the listing, except the fields its owner edited (lib/claims).
    if (outcome === "updated" && server.status !== "deleted") {
      await refreshImportedListing(db, remote.url, {
        ...importedListingText({ ...server, upstreamName: server.name }),
        categories: server.agora?.categories,
      });
      if (await restoreImportedListing(db, remote.url, server.status)) counts.restored++;
    }
    // Only a newer entry than the one held (outcome "updated") takes a listing down: an out-of-order page cannot.
    if (
      server.status === "deleted" &&
      (outcome === "updated" || outcome === "inserted") &&
      (await hideImportedListing(db, remote.url))
    )
      counts.hidden++;
  }
}

/** A name seen in this run: when its entry was updated, and whether it said deleted. */
type SeenName = { at: number; deleted: boolean };

/**
 * Counts a page's entries and keeps those to write: a name's latest version, seen once in this run (or again, newer
 * than when it was first seen: a deletion later in the run is not lost), with a remote. Names are compared as the
 * upstream may spell them differently (case, a trailing slash). The high-water mark moves to the newest update seen,
 * whatever was kept.
 */
function sortPage(
  servers: RegistryServer[],
  names: Map<string, SeenName>,
  counts: RegistryCounts,
  highWaterMark: Date | null,
): { toWrite: RegistryServer[]; highWaterMark: Date | null } {
  const toWrite: RegistryServer[] = [];
  // A name written twice in one page is written once, as its later entry says (one batch takes one entry per remote).
  const onPage = new Map<string, number>();
  for (const server of servers) {
    counts.seen++;
    if (server.updatedAt && (!highWaterMark || server.updatedAt > highWaterMark)) highWaterMark = server.updatedAt;
    if (server.htmlStripped) counts.htmlStripped++;
    if (server.invisibleStripped) counts.invisibleStripped++;
    const key = server.name.toLowerCase();
    const seen = names.get(key);
    const at = server.updatedAt?.getTime() ?? -Infinity;
    // Seen before in this run: only a newer entry counts, or at the same time a deletion (a deletion wins a tie).
    const supersedes = !seen || at > seen.at || (at === seen.at && server.status === "deleted" && !seen.deleted);
    if (!server.isLatest) counts.notLatest++;
    else if (!supersedes) counts.duplicateName++;
    else if (server.remotes.length === 0) counts.noRemote++;
    else if (onPage.has(key)) toWrite[onPage.get(key)!] = server;
    else onPage.set(key, toWrite.push(server) - 1);
    if (server.isLatest && supersedes) names.set(key, { at, deleted: server.status === "deleted" });
  }
  return { toWrite, highWaterMark };
}

/** Every version on the page of a name with a remote (latest or not), for …/versions. */
async function recordVersions(db: Db, source: IngestSource, servers: RegistryServer[]): Promise<void> {
  await recordUpstreamVersions(
    db,
    servers.flatMap((s) =>
      s.remotes.length > 0 && s.version
        ? [
            {
              sourceKey: source.key,
              upstreamName: s.name,
              version: s.version,
              publishedAt: s.publishedAt,
              server: s.upstreamServer,
            },
          ]
        : [],
    ),
  );
}

/**
 * Entries that are this Agora's own listings come back through a loop (this Agora reads a registry that reads it):
 * they are set aside, counted and named in the log, never written again as imports of themselves.
 */
async function setLoopsAside(
  db: Db,
  source: IngestSource,
  servers: RegistryServer[],
  counts: RegistryCounts,
): Promise<RegistryServer[]> {
  const ids = servers.flatMap((s) =>
    [...(s.agora?.registries ?? []).map((h) => h.listingId), s.agora?.listingId].filter((id): id is string =>
      Boolean(id),
    ),
  );
  const ours = await heldListingIds(db, ids);
  if (ours.size === 0) return servers;
  const kept: RegistryServer[] = [];
  for (const server of servers) {
    const chain = provenanceOf(source, server);
    if (!chain.some((hop) => hop.listingId && ours.has(hop.listingId))) {
      kept.push(server);
      continue;
    }
    counts.loops++;
    logWarn("ingestion: registry loop detected", {
      source: source.key,
      entry: server.name,
      loop: loopLine(chain, ours),
    });
  }
  return kept;
}

export async function ingestRegistry(
  db: Db,
  source: IngestSource,
  fetch: FetchLike,
  options: { retryDelayMs?: number } = {},
): Promise<RegistryRun> {
  const counts: RegistryCounts = {
    pages: 0,
    seen: 0,
    notLatest: 0,
    noRemote: 0,
    malformed: 0,
    duplicateName: 0,
    htmlStripped: 0,
    invisibleStripped: 0,
    candidates: 0,
    namedTools: 0,
    written: 0,
    merged: 0,
    hidden: 0,
    restored: 0,
    loops: 0,
  };
  const errors: string[] = [];
  const state = await sourceState(db, source.key);
  const since = state.highWaterMark;
  let highWaterMark = since;
  let cursor = state.cursor;
  if (!state.runStartedAt) await saveProgress(db, source.key, { cursor, runStartedAt: new Date() });
  // The registry keeps one latest version per name: a name seen again in one run is an upstream fault, skipped.
  const names = new Map<string, SeenName>();
  const cursors = new Set<string>(cursor ? [cursor] : []);

  let completed = false;
  let restart = false;
  try {
    while (counts.pages < MAX_PAGES_PER_RUN) {
      const page = await readPage(fetch, source, cursor, since, options.retryDelayMs ?? 1000);
      counts.pages++;
      counts.malformed += page.malformed.length;
      // Each skipped entry is logged with where it was, so a publisher (or the operator) can find it upstream.
      if (page.malformed.length > 0) {
        logWarn("ingestion: registry entries skipped", {
          source: source.key,
          page: counts.pages,
          cursor,
          entries: page.malformed.slice(0, 20),
          skipped: page.malformed.length,
        });
      }
      const servers = await setLoopsAside(db, source, page.servers, counts);
      const sorted = sortPage(servers, names, counts, highWaterMark);
      highWaterMark = sorted.highWaterMark;
      await recordVersions(db, source, servers);
      await ingestServers(db, source, sorted.toWrite, counts);
      if (page.nextCursor && cursors.has(page.nextCursor)) {
        // The registry sent a cursor it sent before: reading on would never end. The next run starts over from
        // the high-water mark (unchanged: this run did not finish).
        restart = true;
        throw new Error(`the registry sent cursor "${page.nextCursor.slice(0, 50)}" a second time (a cursor loop)`);
      }
      const moved = page.nextCursor !== cursor;
      cursor = page.nextCursor;
      if (cursor) cursors.add(cursor);
      // Saved only when it moved: a run over nothing new writes no progress rows.
      if (moved) await saveProgress(db, source.key, { cursor });
      if (!cursor) {
        completed = true;
        break;
      }
    }
  } catch (error) {
    errors.push(`page ${counts.pages + (restart ? 0 : 1)}: ${errorText(error)}`);
  }
  // Skipped entries are counted (lastCounts, the admin view); a run that stopped has its reason in lastErrors.
  if (errors.length > 0 || counts.malformed > 0 || counts.duplicateName > 0 || counts.loops > 0) {
    logWarn("ingestion: registry run had problems", {
      source: source.key,
      errors: errors.slice(0, 5),
      malformed: counts.malformed,
      duplicateName: counts.duplicateName,
      loops: counts.loops,
    });
  }
  await finishRun(db, source.key, { highWaterMark, counts, errors, completed, restart });
  return { counts, errors, completed };
}
