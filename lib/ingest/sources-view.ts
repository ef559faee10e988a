// What the admin view shows of each source: its configuration, last run, high-water mark, counts and errors.
import { allSourceStates, candidateTallies } from "@/db/queries/ingest";
import type { Db } from "@/db/types";
import type { IngestSource } from "@/lib/config/ingest-sources";

type SourceView = {
  key: string;
  kind: string;
  baseUrl: string;
  /** False for a source a run once read that INGEST_SOURCES no longer names. */
  configured: boolean;
  lastRunAt: Date | null;
  highWaterMark: Date | null;
  /** A run stopped part-way: where the next one resumes. */
  resumesAt: string | null;
  counts: { seen: number | null; candidates: number; paid: number; listed: number; hidden: number; errors: number };
  lastErrors: string[];
};

export async function loadSourcesView(db: Db, configured: IngestSource[]): Promise<SourceView[]> {
  const [states, tallies] = await Promise.all([allSourceStates(db), candidateTallies(db)]);
  const keys = [...new Set([...configured.map((s) => s.key), ...states.map((s) => s.key)])];
  return keys.map((key) => {
    const state = states.find((s) => s.key === key);
    const tally = tallies.find((t) => t.sourceKey === key);
    const lastCounts = (state?.lastCounts ?? {}) as Record<string, unknown>;
    const lastErrors = Array.isArray(state?.lastErrors)
      ? (state.lastErrors as unknown[]).filter((e): e is string => typeof e === "string")
      : [];
    return {
      key,
      kind: key.slice(0, key.indexOf("=")),
      baseUrl: key.slice(key.indexOf("=") + 1),
      configured: configured.some((s) => s.key === key),
      lastRunAt: state?.lastRunAt ?? null,
      highWaterMark: state?.highWaterMark ?? null,
      resumesAt: state?.cursor ?? null,
      counts: {
        seen: typeof lastCounts.seen === "number" ? lastCounts.seen : null,
        candidates: tally?.candidates ?? 0,
        paid: tally?.paid ?? 0,
        listed: tally?.listed ?? 0,
        hidden: tally?.deleted ?? 0,
        errors: lastErrors.length,
      },
      lastErrors,
    };
  });
}
