// One run over an MCP Registry source, as the registry asks aggregators to read it: every page the first
// time, then only what changed since the last run's high-water mark. Resumable: the page cursor is saved after
// each page, and re-reading a page writes nothing new. Bounded: one page in memory at a time.
import { finishRun, hideImportedListing, saveProgress, sourceState, upsertCandidate } from "@/db/queries/ingest";
import { refreshImportedListing } from "@/db/queries/listing-write";
import type { Db } from "@/db/types";
import type { FetchLike } from "@/lib/ssrf";
import { importedListingText } from "./listing-text";
import { fetchRegistryPage, pageUrl, type RegistryPage } from "./registry-client";
import type { IngestSource } from "./sources";

export type RegistryCounts = { pages: number; seen: number; notLatest: number; noRemote: number; malformed: number; candidates: number; written: number; hidden: number };

export type RegistryRun = { counts: RegistryCounts; errors: string[]; completed: boolean };

/** A run reads at most this many pages (10,000 servers); the next run resumes from the saved cursor. */
const MAX_PAGES_PER_RUN = 100;

async function pageWithRetry(fetch: FetchLike, url: string, retryDelayMs: number): Promise<RegistryPage> {
  try {
    return await fetchRegistryPage(fetch, url);
  } catch {
    await new Promise((r) => setTimeout(r, retryDelayMs));
    return fetchRegistryPage(fetch, url); // a page that fails twice ends the run where it is
  }
}

export async function ingestRegistry(db: Db, source: IngestSource, fetch: FetchLike, options: { retryDelayMs?: number } = {}): Promise<RegistryRun> {
  const counts: RegistryCounts = { pages: 0, seen: 0, notLatest: 0, noRemote: 0, malformed: 0, candidates: 0, written: 0, hidden: 0 };
  const errors: string[] = [];
  const state = await sourceState(db, source.key);
  const since = state.highWaterMark;
  let highWaterMark = since;
  let cursor = state.cursor;
  if (!state.runStartedAt) await saveProgress(db, source.key, { cursor, runStartedAt: new Date() });

  let completed = false;
  try {
    while (counts.pages < MAX_PAGES_PER_RUN) {
      const page = await pageWithRetry(fetch, pageUrl(source.baseUrl, cursor, since), options.retryDelayMs ?? 1000);
      counts.pages++;
      counts.malformed += page.malformed;
      for (const server of page.servers) {
        counts.seen++;
        if (server.updatedAt && (!highWaterMark || server.updatedAt > highWaterMark)) highWaterMark = server.updatedAt;
        if (!server.isLatest) {
          counts.notLatest++;
          continue;
        }
        if (server.remotes.length === 0) {
          counts.noRemote++;
          continue;
        }
        for (const remote of server.remotes) {
          counts.candidates++;
          const outcome = await upsertCandidate(db, {
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
          });
          if (outcome !== "unchanged") counts.written++;
          // An upstream change reaches the listing, except what its owner edited.
          if (outcome === "updated" && server.status !== "deleted") await refreshImportedListing(db, remote.url, importedListingText({ ...server, upstreamName: server.name }));
          if (server.status === "deleted" && (await hideImportedListing(db, remote.url))) counts.hidden++;
        }
      }
      cursor = page.nextCursor;
      await saveProgress(db, source.key, { cursor });
      if (!cursor) {
        completed = true;
        break;
      }
    }
  } catch (error) {
    errors.push(`page ${counts.pages + 1}: ${error instanceof Error ? error.message.slice(0, 200) : "failed"}`);
  }
  await finishRun(db, source.key, { highWaterMark, counts, errors, completed });
  return { counts, errors, completed };
}
