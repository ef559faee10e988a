// The x402 Bazaar's filters as both discovery endpoints apply them (GET /discovery/resources and GET
// /discovery/search): one reading of the URL, one schema (lib/validations/registry.ts bazaarFiltersShape), one
// meaning. A parameter neither endpoint knows is not refused (generic clients send options that do not apply here)
// and not silently dropped: the answer names it in `unappliedFilters`.
import { PAYMENT_NETWORKS } from "@agora-mcp/protocol";
import type { z } from "zod";
import type { PayableFilter } from "@/db/queries/discovery";
import { validationError } from "@/lib/errors";
import type { BazaarFilters } from "@/lib/validations/registry";

// Unknown parameter names are echoed back: bounded, so a hostile URL cannot grow the answer.
const UNAPPLIED_MAX = 20;
const NAME_MAX = 64;

/**
 * The query of a discovery request, validated (400 with the first problem otherwise), and the parameters it does
 * not know. `extensions` may repeat (each value counts); any other parameter given twice counts once, the last.
 */
export function readDiscoveryQuery<S extends z.ZodObject>(
  request: Request,
  schema: S,
): { query: z.infer<S>; unappliedFilters: string[] } {
  const params = new URL(request.url).searchParams;
  const record: Record<string, string | string[]> = {};
  for (const key of new Set(params.keys()))
    record[key] = key === "extensions" ? params.getAll(key) : params.getAll(key).at(-1)!;
  const parsed = schema.safeParse(record);
  if (!parsed.success) throw validationError(parsed.error);
  const known = new Set(Object.keys(schema.shape));
  const unknown = Object.keys(record).filter((key) => !known.has(key));
  return { query: parsed.data, unappliedFilters: unknown.slice(0, UNAPPLIED_MAX).map((key) => key.slice(0, NAME_MAX)) };
}

/**
 * The entries the filters keep, as the database query takes them; null when none can match. Every entry Agora
 * lists is an MCP tool (`type` mcp), paid with the `exact` scheme, carrying the `bazaar` extension, on one of the
 * payment networks (CAIP-2 or the version 1 name), in that network's USDC.
 */
export function payableFilter(filters: BazaarFilters): PayableFilter | null {
  if (filters.type && filters.type.toLowerCase() !== "mcp") return null;
  if (filters.scheme && filters.scheme.toLowerCase() !== "exact") return null;
  if (filters.extensions?.some((name) => name.toLowerCase() !== "bazaar")) return null;
  const networks = PAYMENT_NETWORKS.filter(
    (n) => !filters.network || n.caip2 === filters.network || n.v1Network === filters.network,
  );
  if (networks.length === 0) return null;
  return {
    networks: networks.map((n) => n.caip2),
    payTo: filters.payTo,
    asset: filters.asset,
    maxUnits: filters.maxUsdPrice,
    usdcAssets: networks.map((n) => n.asset),
    source: filters.source,
  };
}

/** The answer's report of what it did not apply: present only when something was left out. */
export function unappliedReport(unappliedFilters: string[]): { unappliedFilters?: string[] } {
  return unappliedFilters.length ? { unappliedFilters } : {};
}
