// Where ingestion reads from: INGEST_SOURCES, a comma-separated list of `kind=baseUrl`.
import { IMPORT_SOURCES, type ImportSource } from "@agora-mcp/protocol";
import { z } from "zod";

export type IngestSource = { kind: ImportSource; baseUrl: string; key: string };

const baseUrl = z
  .url({ protocol: /^https?$/, message: "must be an http(s) URL" })
  .transform((u) => u.replace(/\/+$/, ""));

/** Parses the setting; throws with a message naming the bad entry (lib/env.ts turns it into a start-up error). */
export function parseIngestSources(value: string | undefined): IngestSource[] {
  if (!value?.trim()) return [];
  const seen = new Set<string>();
  return value.split(",").map((entry) => {
    const [kind, ...rest] = entry.trim().split("=");
    if (!IMPORT_SOURCES.includes(kind as ImportSource))
      throw new Error(`"${entry.trim()}": the kind must be one of ${IMPORT_SOURCES.join(", ")} (kind=baseUrl)`);
    const url = baseUrl.safeParse(rest.join("=").trim());
    if (!url.success) throw new Error(`"${entry.trim()}": the base URL ${url.error.issues[0]!.message}`);
    const key = `${kind}=${url.data}`;
    if (seen.has(key)) throw new Error(`"${entry.trim()}" is listed twice`);
    seen.add(key);
    return { kind: kind as ImportSource, baseUrl: url.data, key };
  });
}
