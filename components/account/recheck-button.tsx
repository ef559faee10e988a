"use client";
import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { Loader2, RefreshCw } from "lucide-react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { recheckListing } from "@/lib/actions/recheck-listing";

export function RecheckButton({ listingId }: { listingId: string }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  return (
    <Button
      size="sm"
      variant="outline"
      disabled={pending}
      onClick={() =>
        start(async () => {
          const result = await recheckListing(listingId);
          if (result.ok) {
            toast.success("Checked", {
              description: result.data.reachable
                ? "Your server answered the check."
                : (result.data.error ?? "Your server did not answer."),
            });
            router.refresh();
          } else toast.error("Error", { description: result.message });
        })
      }
    >
      {pending ? <Loader2 className="animate-spin" /> : <RefreshCw />} Re-check
    </Button>
  );
}
