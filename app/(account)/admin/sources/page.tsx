import type { Metadata } from "next";
import { forbidden, redirect } from "next/navigation";
import { RunIngestButton } from "@/components/admin/run-ingest-button";
import { getDb } from "@/lib/database";
import { env } from "@/lib/env";
import { isAdmin } from "@/lib/auth/admin";
import { currentUser } from "@/lib/auth/current-user";
import { formatDayTime } from "@/lib/dates";
import { ingestRunning } from "@/lib/jobs/ingest-now";
import { parseIngestSources } from "@/lib/config/ingest-sources";
import { loadSourcesView } from "@/lib/ingest/sources-view";
import { sourceName } from "@/lib/listings/source-names";

export const metadata: Metadata = { title: "Ingestion sources", robots: { index: false } };

export default async function SourcesPage() {
  const user = await currentUser();
  if (!user) redirect("/login");
  if (!isAdmin(user)) forbidden();
  const db = await getDb();
  const configured = parseIngestSources(env().INGEST_SOURCES);
  const [sources, running] = await Promise.all([loadSourcesView(db, configured), ingestRunning(db)]);

  return (
    <div className="mx-auto max-w-4xl px-4 py-12 sm:px-6">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div>
          <h1 className="text-3xl font-bold tracking-tight">Ingestion sources</h1>
          <p className="mt-2 text-muted-foreground">
            {configured.length === 0
              ? "No sources are configured. Set INGEST_SOURCES (e.g. mcp-registry=https://registry.modelcontextprotocol.io) to import paid servers."
              : running
                ? "A run is going now (checks or ingestion); counts update when it ends."
                : "Sources are read after each scheduled check, about hourly. Paid servers they list become listings."}
          </p>
        </div>
        {configured.length > 0 && <RunIngestButton disabled={running} />}
      </div>

      <ul className="mt-8 space-y-6" aria-label="Sources">
        {sources.map((source) => (
          <li key={source.key} className="rounded-xl border bg-card p-5 shadow-xs" data-testid="source">
            <div className="flex flex-col gap-1 sm:flex-row sm:items-baseline sm:justify-between">
              <h2 className="text-lg font-semibold">{sourceName(source.kind)}</h2>
              <code className="font-mono text-xs break-all text-muted-foreground">{source.baseUrl}</code>
            </div>
            {!source.configured && (
              <p className="mt-1 text-sm text-muted-foreground">No longer in INGEST_SOURCES: not read any more.</p>
            )}
            <dl className="mt-3 grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
              <div className="flex justify-between gap-2 sm:block">
                <dt className="inline text-muted-foreground">Last run: </dt>
                <dd className="inline">{source.lastRunAt ? formatDayTime(source.lastRunAt) : "never"}</dd>
              </div>
              <div className="flex justify-between gap-2 sm:block">
                <dt className="inline text-muted-foreground">High-water mark: </dt>
                <dd className="inline">
                  {source.highWaterMark
                    ? formatDayTime(source.highWaterMark)
                    : source.kind === "mcp-registry"
                      ? "none yet (the next run reads everything)"
                      : "not used (the list is read whole)"}
                </dd>
              </div>
              {source.resumesAt && (
                <div className="sm:col-span-2">
                  <dt className="inline text-muted-foreground">Stopped part-way; resumes at: </dt>
                  <dd className="inline font-mono text-xs break-all">{source.resumesAt}</dd>
                </div>
              )}
            </dl>
            <table className="mt-4 w-full text-sm" aria-label={`Counts for ${source.baseUrl}`}>
              <thead className="text-left text-xs text-muted-foreground">
                <tr>
                  {["Seen", "Candidates", "Paid", "Listed", "Hidden", "Errors"].map((h) => (
                    <th key={h} className="pr-2 font-medium">
                      {h}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                <tr className="font-semibold tabular-nums">
                  {[
                    source.counts.seen ?? "—",
                    source.counts.candidates,
                    source.counts.paid,
                    source.counts.listed,
                    source.counts.hidden,
                    source.counts.errors,
                  ].map((n, i) => (
                    <td key={i} className="pt-1 pr-2">
                      {n}
                    </td>
                  ))}
                </tr>
              </tbody>
            </table>
            <p className="mt-1 text-xs text-muted-foreground">
              Seen: entries read by the last run. The rest: what this source&apos;s servers are now.
            </p>
            {source.lastErrors.length > 0 && (
              <div className="mt-4 rounded-lg border border-destructive/30 bg-destructive/5 p-3">
                <h3 className="text-sm font-semibold">Last errors</h3>
                <ul className="mt-1 list-disc pl-5 text-sm break-words">
                  {source.lastErrors.map((e, i) => (
                    <li key={i}>{e}</li>
                  ))}
                </ul>
              </div>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
