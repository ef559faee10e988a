// One ingestion run: every configured source read (registries and discovery lists, page by page), then the
// candidates that are due checked. The scheduled verification runs it under its database lease; `npm run ingest`
// and the admin view's "run now" run it by hand.
import { changed } from "@/lib/cache/invalidate";
import type { Db } from "@/db/types";
import { createSafeFetch } from "@/lib/ssrf";
import { checkCandidates, emptyCandidateCounts, type CandidateCounts, type CandidateOptions } from "./check-candidates";
import { ingestDiscovery, type DiscoveryRun } from "./ingest-discovery";
import { ingestRegistry, type RegistryRun } from "./ingest-registry";
import type { IngestSource } from "@/lib/config/ingest-sources";

type SourceRun = { key: string; kind: IngestSource["kind"] } & (RegistryRun | DiscoveryRun);
export type IngestSummary = { sources: SourceRun[]; candidates: CandidateCounts };

export type IngestOptions = CandidateOptions & {
  retryDelayMs?: number;
  /** A source's page must arrive within this (default 30 s) and be at most this large (default 8 MB). */
  sourceTimeoutMs?: number;
  sourceMaxBytes?: number;
  /**
   * Sources are the operator's own settings, not user input, so one on a private address (a registry on the
   * same network) may be allowed on its own; the candidates they list are checked under allowPrivateHosts.
   */
  sourceAllowPrivateHosts?: boolean;
};

export async function runIngest(db: Db, sources: IngestSource[], options: IngestOptions = {}): Promise<IngestSummary> {
  const fetch = createSafeFetch({
    allowPrivateHosts: options.sourceAllowPrivateHosts ?? options.allowPrivateHosts,
    timeoutMs: options.sourceTimeoutMs ?? 30_000,
    maxBytes: options.sourceMaxBytes ?? 8 * 1024 * 1024,
    reuseConnections: true,
  });
  const summary: IngestSummary = { sources: [], candidates: emptyCandidateCounts() };
  try {
    for (const source of sources) {
      const run =
        source.kind === "mcp-registry"
          ? await ingestRegistry(db, source, fetch, options)
          : await ingestDiscovery(db, source, fetch, options);
      summary.sources.push({ key: source.key, kind: source.kind, ...run });
    }
  } finally {
    await fetch.close();
  }
  if (sources.length > 0) summary.candidates = await checkCandidates(db, options);
  // Listed, hidden, updated or re-checked listings: cached marketplace and detail pages must not outlive them.
  const wrote = summary.sources.some(
    (run) => run.counts.written > 0 || ("hidden" in run.counts && run.counts.hidden + run.counts.restored > 0),
  );
  if (wrote || summary.candidates.checked > 0) await changed("catalogue");
  return summary;
}
