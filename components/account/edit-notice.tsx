import { Clock, CircleX } from "lucide-react";
import { EditChanges } from "@/components/listings/edit-changes";
import { formatDay } from "@/lib/dates";
import { editChanges, termsChanges } from "@/lib/listings/edits/changes";
import type { OwnEdit } from "@/lib/listings/model";

/** The owner's edit of an approved listing: waiting for review, or rejected with the reviewer's reason. */
export function EditNotice({ edit }: { edit: OwnEdit }) {
  // A change of the server's own terms that a check held for review shows beside the text's changes.
  const sameServer = edit.check?.url === edit.current.serverUrl;
  const changes = [
    ...editChanges(edit.current, edit.proposed),
    ...(sameServer ? termsChanges(edit.approvedTerms, edit.check) : []),
  ];
  const pending = edit.status === "pending";
  return (
    <div
      className={`rounded-md border p-3 ${pending ? "bg-muted/30" : "border-destructive/40 bg-destructive/5"}`}
      data-testid="edit-notice"
    >
      <p className="flex items-center gap-1.5 text-sm font-medium">
        {pending ? (
          <Clock className="size-4" aria-hidden="true" />
        ) : (
          <CircleX className="size-4 text-destructive" aria-hidden="true" />
        )}
        {pending ? `Edit awaiting review (sent ${formatDay(edit.submittedAt)})` : "Edit not approved"}
      </p>
      {!pending && edit.rejectionReason && (
        <p className="mt-1 text-sm text-destructive">Reason: {edit.rejectionReason}</p>
      )}
      <p className="mt-1 text-xs text-muted-foreground">
        {pending
          ? "The approved version stays in the marketplace until a reviewer approves the edit. Editing again replaces it."
          : "The approved version stays in the marketplace. Edit again to send new changes for review."}
      </p>
      <div className="mt-3">
        <EditChanges changes={changes} />
      </div>
    </div>
  );
}
