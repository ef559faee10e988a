// One ingestion run: every configured source read (registries page by page), then the candidates that are due
// checked. The scheduled verification runs it under its database lease; `npm run ingest` runs it by hand.
import type { Db } from "@/db/types";
import { createSafeFetch } from "@/lib/ssrf";
import { checkCandidates, type CandidateCounts, type CandidateOptions } from "./check-candidates";
import { ingestRegistry, type RegistryRun } from "./ingest-registry";
import type { IngestSource } from "./sources";

export type IngestSummary = { sources: Array<{ key: string } & (RegistryRun | { skipped: string })>; candidates: CandidateCounts };

export type IngestOptions = CandidateOptions & { retryDelayMs?: number };

export async function runIngest(db: Db, sources: IngestSource[], options: IngestOptions = {}): Promise<IngestSummary> {
  const fetch = createSafeFetch({ allowPrivateHosts: options.allowPrivateHosts, timeoutMs: 30_000, maxBytes: 8 * 1024 * 1024, reuseConnections: true });
  const summary: IngestSummary = { sources: [], candidates: { checked: 0, paid: 0, listed: 0, free: 0, unreachable: 0 } };
  try {
    for (const source of sources) {
      if (source.kind === "mcp-registry") summary.sources.push({ key: source.key, ...(await ingestRegistry(db, source, fetch, options)) });
      // x402 discovery lists are not read yet (issue #27, item 4).
      else summary.sources.push({ key: source.key, skipped: "x402-discovery sources are not read yet" });
    }
  } finally {
    await fetch.close();
  }
  if (sources.length > 0) summary.candidates = await checkCandidates(db, options);
  return summary;
}
