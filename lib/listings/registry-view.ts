// A listing as the official-registry API serves it: its view, with the registry status it has there (active,
// deprecated, or deleted once it left the catalogue), the dates of that status and of its first publication, and
// what its upstream said of it (an imported listing's server.json and the registries it came through).
import type { RegistryListingRow } from "@/db/queries/listings";
import type { ProvenanceChain, UpstreamServerJson } from "@/db/schema";
import type { ListingView } from "./model";

export type RegistryStatus = "active" | "deprecated" | "deleted";

export type RegistryFacts = {
  status: RegistryStatus;
  statusChangedAt: string;
  publishedAt: string;
  upstreamServer: UpstreamServerJson | null;
  provenance: ProvenanceChain;
};

export type RegistryView = ListingView & { registry: RegistryFacts };

/**
 * Deleted: a listing no longer approved (removed, rejected after approval, unlisted, deleted upstream); deprecated:
 * one its upstream deprecated; active otherwise.
 */
function registryStatusOf(row: Pick<RegistryListingRow, "status" | "upstreamStatus">): RegistryStatus {
  if (row.status !== "approved" || row.upstreamStatus === "deleted") return "deleted";
  return row.upstreamStatus === "deprecated" ? "deprecated" : "active";
}

export function registryFactsOf(row: RegistryListingRow): RegistryFacts {
  const iso = (d: Date | string) => new Date(d).toISOString();
  return {
    status: registryStatusOf(row),
    statusChangedAt: iso(row.statusChangedAt ?? row.approvedAt ?? row.createdAt),
    publishedAt: iso(row.publishedAt ?? row.createdAt),
    upstreamServer: row.upstreamServer ?? null,
    provenance: row.provenance ?? [],
  };
}
