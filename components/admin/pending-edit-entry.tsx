import Link from "next/link";
import { EditChanges } from "@/components/listings/edit-changes";
import { formatDayTime } from "@/lib/dates";
import type { EditChange } from "@/lib/listings/edits/changes";
import type { ListingCheck, PendingEditEntry as Entry } from "@/lib/listings/model";
import { ProbeEvidence } from "./probe-evidence";
import { ReviewActions } from "./review-actions";

type Props = { edit: Omit<Entry, "check"> & { changes: EditChange[]; check: ListingCheck | undefined } };

/** One owner's pending edit of an approved listing: who sent it, what it changes, what its own check found. */
export function PendingEditEntry({ edit }: Props) {
  const { current, submitter } = edit;
  return (
    <li className="rounded-xl border bg-card p-5 shadow-xs" data-testid="edit-entry">
      <div className="flex flex-col gap-1 sm:flex-row sm:items-baseline sm:justify-between">
        <h3 className="text-lg font-semibold break-words">
          <Link href={`/marketplace/${edit.slug}`} className="underline-offset-4 hover:underline">
            {current.name}
          </Link>
        </h3>
        <p className="text-xs text-muted-foreground">
          Edit sent {formatDayTime(edit.submittedAt)} · version {edit.revision}
        </p>
      </div>
      <p className="mt-1 text-sm text-muted-foreground">
        by{" "}
        {submitter
          ? [
              submitter.name,
              submitter.email &&
                (submitter.emailConfirmed ? submitter.email : `${submitter.email} (email not confirmed)`),
              submitter.githubLogin && `@${submitter.githubLogin}`,
            ]
              .filter(Boolean)
              .join(" · ")
          : "no account on record (deleted)"}
        {" · the approved version stays listed until you decide"}
      </p>
      <div className="mt-4 rounded-lg border p-4">
        <h4 className="mb-2 text-sm font-semibold">Changes</h4>
        <EditChanges changes={edit.changes} />
      </div>
      <div className="mt-4 rounded-lg border bg-muted/30 p-4">
        <h4 className="mb-2 text-sm font-semibold">Check of the edited server</h4>
        {edit.check ? (
          <ProbeEvidence probe={edit.check} />
        ) : (
          <p className="text-sm text-muted-foreground">
            Not checked yet. The check runs right after the edit is saved; approving checks it if it has not run.
          </p>
        )}
      </div>
      <div className="mt-4">
        <ReviewActions listingId={edit.listingId} name={current.name} revision={edit.revision} edit />
      </div>
    </li>
  );
}
