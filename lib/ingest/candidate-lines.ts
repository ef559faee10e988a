// What a run's checks found, in words: `npm run ingest` prints it, one line per reason a candidate was or was not
// listed (docs/operations.md explains each).
import type { CandidateCounts, CandidateOutcome } from "./check-candidates";

const SAID: Record<CandidateOutcome, string> = {
  paid: "paid (priced items read)",
  refused: "refused: the address is private or no URL",
  unreachable: "not reachable",
  notMcp: "not MCP: answers HTTP, but not as an MCP server",
  priceMoved: "paid, but the price changed between two asks",
  noOffer: "paid, but no offer Agora can pay (scheme, network or token)",
  callFailed: "named as paid, but the unpaid call failed",
  noAsk: "named as paid, but answered without asking for payment",
  free: "free: no paid signal (no tool called)",
};

export function candidateLines(counts: CandidateCounts): string[] {
  const lines = [`Checked ${counts.checked} candidates, ${counts.listed} newly listed:`];
  for (const [outcome, said] of Object.entries(SAID) as [CandidateOutcome, string][])
    lines.push(`  ${String(counts[outcome]).padStart(5)}  ${said}`);
  return lines;
}
