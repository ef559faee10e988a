// npm run ingest — reads every INGEST_SOURCES source once against the configured database, checks the
// candidates that are due, and prints what it counted. With PGlite, stop the app first (one process per data
// directory). Exits non-zero when a source failed or the database did.
import { openConfiguredDatabase, settingsOrExit } from "./support/database";
import { candidateLines } from "@/lib/ingest/candidate-lines";
import { runIngest } from "@/lib/ingest/run-ingest";
import { parseIngestSources } from "@/lib/config/ingest-sources";
import { logError } from "@/lib/log";

let exitCode = 0;
try {
  const { INGEST_SOURCES, PROBE_ALLOW_PRIVATE_HOSTS } = settingsOrExit();
  const sources = parseIngestSources(INGEST_SOURCES);
  if (sources.length === 0) {
    console.log(
      "INGEST_SOURCES is not set: nothing to ingest (e.g. INGEST_SOURCES=mcp-registry=https://registry.modelcontextprotocol.io).",
    );
  } else {
    const conn = await openConfiguredDatabase();
    try {
      const summary = await runIngest(conn.db, sources, { allowPrivateHosts: PROBE_ALLOW_PRIVATE_HOSTS });
      for (const source of summary.sources) {
        const counted = Object.entries(source.counts)
          .map(([name, n]) => `${n} ${name}`)
          .join(", ");
        console.log(`${source.key}: ${counted}${source.completed ? "" : " — stopped early, resumes next run"}`);
        for (const error of source.errors) console.log(`  error: ${error}`);
        if (source.errors.length > 0) exitCode = 1;
      }
      console.log(candidateLines(summary.candidates).join("\n"));
    } finally {
      await conn.close();
    }
  }
} catch (error) {
  logError("ingest failed", error);
  console.error(error instanceof Error ? error.message : error);
  exitCode = 1;
}
process.exit(exitCode);
