// One run over an x402 facilitator's discovery list: MCP resources become candidates like registry remotes,
// merged with them by remote URL (db/queries/ingest.ts upsertCandidate), one per server with the paid tools its
// entries name (the probe calls exactly those, unpaid, to read their prices). The list has no "changed since", so
// every run reads it all, page by page (limit/offset), writing only what changed. Resumable: the offset is saved
// after each page. Bounded: one page in memory, at most MAX_PAGES_PER_RUN pages per run.
import { finishRun, saveProgress, sourceState, upsertCandidate } from "@/db/queries/ingest";
import type { Db } from "@/db/types";
import { logWarn } from "@/lib/log";
import type { FetchLike } from "@/lib/ssrf";
import { DISCOVERY_PAGE_SIZE, discoveryPageUrl, fetchDiscoveryPage, type DiscoveredServer } from "./discovery-client";
import { MAX_NAMED_TOOLS, namedPaidTools } from "./paid-tool-names";
import { errorText, withOneRetry } from "./retry";
import type { IngestSource } from "@/lib/config/ingest-sources";

/** `namedTools`: the paid tools the run's entries named, each server's counted once (a server is one candidate). */
type DiscoveryCounts = {
  pages: number;
  seen: number;
  notMcp: number;
  malformed: number;
  htmlStripped: number;
  candidates: number;
  namedTools: number;
  written: number;
  merged: number;
};
export type DiscoveryRun = { counts: DiscoveryCounts; errors: string[]; completed: boolean };

const MAX_PAGES_PER_RUN = 100;

export async function ingestDiscovery(
  db: Db,
  source: IngestSource,
  fetch: FetchLike,
  options: { retryDelayMs?: number } = {},
): Promise<DiscoveryRun> {
  const counts: DiscoveryCounts = {
    pages: 0,
    seen: 0,
    notMcp: 0,
    malformed: 0,
    htmlStripped: 0,
    candidates: 0,
    namedTools: 0,
    written: 0,
    merged: 0,
  };
  const errors: string[] = [];
  const state = await sourceState(db, source.key);
  const resumeAt = Number(state.cursor);
  let offset = Number.isSafeInteger(resumeAt) && resumeAt > 0 ? resumeAt : 0;
  if (!state.runStartedAt) await saveProgress(db, source.key, { cursor: state.cursor, runStartedAt: new Date() });
  // One server lists one resource per paid tool: the same URL comes several times in one run, on one page or
  // several. Its tools are gathered here (the names so far, by URL) and written with it.
  const seenTools = new Map<string, Set<string>>();
  let completed = false;
  try {
    while (counts.pages < MAX_PAGES_PER_RUN) {
      const page = await withOneRetry(
        () => fetchDiscoveryPage(fetch, discoveryPageUrl(source.baseUrl, offset)),
        options.retryDelayMs ?? 1000,
      );
      counts.pages++;
      counts.seen += page.received;
      counts.notMcp += page.notMcp;
      counts.malformed += page.malformed;
      if (page.malformedAt.length > 0)
        logWarn("ingestion: discovery items skipped", {
          source: source.key,
          offset,
          positions: page.malformedAt.slice(0, 20).map((p) => offset + p),
        });
      for (const server of page.servers) if (server.htmlStripped) counts.htmlStripped++;
      await writeServers(db, source, page.servers, seenTools, counts);
      offset += page.received;
      // The end: an empty or short page, or the total the facilitator gave reached.
      const done =
        page.received === 0 || page.received < DISCOVERY_PAGE_SIZE || (page.total !== null && offset >= page.total);
      await saveProgress(db, source.key, { cursor: done ? null : String(offset) });
      if (done) {
        completed = true;
        break;
      }
    }
  } catch (error) {
    errors.push(`page ${counts.pages + 1}: ${errorText(error)}`);
  }
  if (errors.length > 0 || counts.malformed > 0)
    logWarn("ingestion: discovery run had problems", { source: source.key, errors, malformed: counts.malformed });
  await finishRun(db, source.key, { highWaterMark: null, counts, errors, completed });
  return { counts, errors, completed };
}

/**
 * A page's servers, one candidate per URL with every paid tool the run has seen it name so far: a server first seen
 * here is written with its tools; one seen on an earlier page only when this page names a tool it did not.
 */
async function writeServers(
  db: Db,
  source: IngestSource,
  servers: DiscoveredServer[],
  seenTools: Map<string, Set<string>>,
  counts: DiscoveryCounts,
): Promise<void> {
  const byUrl = new Map<string, { server: DiscoveredServer; tools: Set<string>; fresh: boolean }>();
  for (const server of servers) {
    let entry = byUrl.get(server.remoteUrl);
    if (!entry) {
      const earlier = seenTools.get(server.remoteUrl);
      entry = { server, tools: new Set(earlier), fresh: !earlier };
      byUrl.set(server.remoteUrl, entry);
    }
    if (server.toolName && entry.tools.size < MAX_NAMED_TOOLS && !entry.tools.has(server.toolName)) {
      entry.tools.add(server.toolName);
      entry.fresh = true;
    }
  }
  for (const [remoteUrl, { server, tools, fresh }] of byUrl) {
    const known = seenTools.get(remoteUrl);
    if (!known) counts.candidates++;
    counts.namedTools += tools.size - (known?.size ?? 0);
    seenTools.set(remoteUrl, tools);
    if (!fresh) continue;
    const outcome = await upsertCandidate(db, {
      remoteUrl,
      sourceKey: source.key,
      upstreamName: server.name,
      title: server.name,
      description: server.description,
      status: "active",
      paidTools: namedPaidTools(tools, "discovery"),
    });
    if (outcome === "foreign") counts.merged++;
    else if (outcome !== "unchanged") counts.written++;
  }
}
