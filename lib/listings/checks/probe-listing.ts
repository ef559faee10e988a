// Every probe of a listing's server goes through here, so the tools its owner named as paid are always read: a
// server whose tools/list says nothing about payment shows its prices only to an unpaid call of a named tool.
import { probeServer, type NamedPaidTool, type ProbeOptions, type ProbeResult } from "@/lib/probe";

/** The owner's names as the probe takes them. */
function ownerNamedTools(names: readonly string[]): NamedPaidTool[] {
  return names.map((name) => ({ name, reason: "owner" }));
}

/** Probes `target`'s server (a listing, or a pending edit of one) with its owner's paid tools added to `options`'. */
export function probeListingServer(
  target: { serverUrl: string; paidTools: readonly string[] },
  options: ProbeOptions = {},
): Promise<ProbeResult> {
  return probeServer(target.serverUrl, {
    ...options,
    paidTools: [...(options.paidTools ?? []), ...ownerNamedTools(target.paidTools)],
  });
}
