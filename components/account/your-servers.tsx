import Link from "next/link";
import { CircleCheck, CircleX, Clock } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import type { SubmittedListing } from "@/lib/listings/model";
import type { DriftRecord } from "@/lib/listings/model";
import type { ListingCheck, OwnEdit } from "@/lib/listings/model";
import { EditNotice } from "./edit-notice";
import { ProbeEvidence } from "@/components/admin/probe-evidence";
import { RecheckButton } from "./recheck-button";
import { formatDay } from "@/lib/dates";

const status = {
  pending: { label: "Pending review", variant: "secondary", icon: Clock },
  approved: { label: "Approved", variant: "success", icon: CircleCheck },
  rejected: { label: "Rejected", variant: "destructive", icon: CircleX },
} as const;

/** The signed-in provider's submissions with their review status. */
export function YourServers({
  servers,
  probes,
  drift,
  edits = new Map(),
}: {
  servers: SubmittedListing[];
  probes: Map<string, ListingCheck>;
  drift: Map<string, DriftRecord[]>;
  edits?: Map<string, OwnEdit>;
}) {
  if (servers.length === 0) {
    return (
      <p className="rounded-lg border border-dashed p-6 text-center text-sm text-muted-foreground">
        You have not submitted a server yet.{" "}
        <Link href="/submit" className="font-medium text-primary underline-offset-4 hover:underline">
          Submit your first one
        </Link>
        .
      </p>
    );
  }
  return (
    <ul className="divide-y rounded-lg border" aria-label="Your servers">
      {servers.map((server) => {
        const { label, variant, icon: Icon } = status[server.status];
        const edit = edits.get(server.id);
        return (
          <li key={server.id} className="flex flex-col gap-2 p-4 sm:flex-row sm:items-start sm:justify-between">
            <div className="min-w-0">
              <p className="font-medium break-words">{server.name}</p>
              <p className="truncate font-mono text-xs text-muted-foreground" title={server.serverUrl}>
                {server.serverUrl}
              </p>
              <p className="mt-1 text-xs text-muted-foreground">Submitted {formatDay(server.createdAt)}</p>
              {server.status === "rejected" && server.rejectionReason && (
                <p className="mt-1 text-sm text-destructive">Reason: {server.rejectionReason}</p>
              )}
              {edit && (
                <div className="mt-3">
                  <EditNotice edit={edit} />
                </div>
              )}
              <div className="mt-3 rounded-md border bg-muted/30 p-3">
                <ProbeEvidence
                  probe={probes.get(server.id)}
                  drift={drift.get(server.id)}
                  approved={server.status === "approved"}
                />
              </div>
            </div>
            <div className="flex shrink-0 flex-col items-start gap-2 sm:items-end">
              <Badge variant={variant}>
                <Icon aria-hidden="true" />
                {label}
              </Badge>
              <div className="flex gap-2">
                <RecheckButton listingId={server.id} />
                <Link
                  href={`/account/servers/${server.id}/edit`}
                  className="inline-flex h-8 items-center rounded-md border px-3 text-sm font-medium hover:bg-accent"
                >
                  Edit<span className="sr-only"> {server.name}</span>
                </Link>
              </div>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
