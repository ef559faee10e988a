import { TriangleAlert } from "lucide-react";
import type { DriftRecord } from "@/lib/listings/model";
import { formatDay } from "@/lib/dates";

const label = { price: "Price changed", wallet: "Payee wallet changed", tools: "Tool set changed" } as const;

/** Changes a check found against what was approved, each with both values ("Price changed on …"). */
export function DriftNotes({
  drift,
  kinds = ["price", "wallet", "tools"],
}: {
  drift: DriftRecord[];
  kinds?: DriftRecord["kind"][];
}) {
  const shown = drift.filter((d) => kinds.includes(d.kind));
  if (shown.length === 0) return null;
  return (
    <ul className="space-y-1 text-sm" data-testid="drift-notes">
      {shown.map((d) => (
        <li key={`${d.kind}-${d.subject}-${d.detectedAt}`} className="flex gap-2 text-amber-800 dark:text-amber-300">
          <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <span className="min-w-0 break-words">
            {label[d.kind]} on <time dateTime={d.detectedAt}>{formatDay(new Date(d.detectedAt))}</time>
            {d.subject ? `: ${d.subject}` : ""} — <span className="break-all">{d.approved}</span> →{" "}
            <span className="break-all">{d.found}</span>
            {d.held && " (held for review)"}
          </span>
        </li>
      ))}
    </ul>
  );
}
