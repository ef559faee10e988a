"use client";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { Check, Loader2, RefreshCw, X } from "lucide-react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Textarea } from "@/components/ui/textarea";
import { recheckListing } from "@/lib/actions/recheck-listing";
import { reviewListing } from "@/lib/actions/review-listing";
import { reviewListingEdit } from "@/lib/actions/review-listing-edit";

/**
 * Approve, reject with a reason, or re-check one pending listing (or, with `edit`, an owner's pending edit of an
 * approved listing, which approving checks itself). Decisions carry the revision this page showed; if the owner
 * edited since, the server answers 409 and the page reloads with the new text.
 */
export function ReviewActions({
  listingId,
  name,
  revision,
  edit = false,
}: {
  listingId: string;
  name: string;
  revision: number;
  edit?: boolean;
}) {
  const decide = edit ? reviewListingEdit : reviewListing;
  const router = useRouter();
  const [pending, start] = useTransition();
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState("");

  function run(
    label: string,
    action: () => Promise<{ ok: true; data: unknown } | { ok: false; status: number; message: string }>,
    success: string,
  ) {
    start(async () => {
      const result = await action();
      if (result.ok) {
        toast.success(label, { description: success });
        router.refresh();
      } else if (result.status === 409) {
        // A fresh look: the queue reloads with what the listing says now.
        toast.error("Listing changed", { description: result.message, duration: 10_000 });
        setRejecting(false);
        router.refresh();
      } else {
        toast.error("Error", { description: result.message });
      }
    });
  }

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap gap-2">
        <Button
          size="sm"
          disabled={pending}
          onClick={() =>
            run(
              "Approved",
              () => decide({ listingId, revision, decision: "approved" }),
              edit ? `The marketplace now shows the edited ${name}.` : `${name} is now in the marketplace.`,
            )
          }
        >
          {pending ? <Loader2 className="animate-spin" /> : <Check />} Approve
        </Button>
        <Button
          size="sm"
          variant="outline"
          disabled={pending}
          onClick={() => setRejecting((r) => !r)}
          aria-expanded={rejecting}
        >
          <X /> Reject
        </Button>
        {!edit && (
          <Button
            size="sm"
            variant="ghost"
            disabled={pending}
            onClick={() => run("Checked", () => recheckListing(listingId), `${name} was probed again.`)}
          >
            <RefreshCw /> Re-check
          </Button>
        )}
      </div>
      {rejecting && (
        <form
          className="space-y-2"
          onSubmit={(e) => {
            e.preventDefault();
            run(
              "Rejected",
              () => decide({ listingId, revision, decision: "rejected", reason }),
              `The provider will see your reason.`,
            );
          }}
        >
          <label htmlFor={`reason-${edit ? "edit-" : ""}${listingId}`} className="text-sm font-medium">
            Reason the provider will see
          </label>
          <Textarea
            id={`reason-${edit ? "edit-" : ""}${listingId}`}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            maxLength={500}
            placeholder="e.g. The server does not answer MCP requests."
          />
          <Button type="submit" size="sm" variant="destructive" disabled={pending || reason.trim().length === 0}>
            Confirm rejection
          </Button>
        </form>
      )}
    </div>
  );
}
