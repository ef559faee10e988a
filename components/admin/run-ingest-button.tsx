"use client";
import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { Loader2, Play } from "lucide-react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { runIngestNow } from "@/lib/actions/run-ingest-now";

/** 'Run now': starts one ingestion run of every source (refused while another run or check holds the lease). */
export function RunIngestButton({ disabled }: { disabled: boolean }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  return (
    <Button
      size="sm"
      disabled={disabled || pending}
      onClick={() =>
        start(async () => {
          const result = await runIngestNow();
          if (result.ok)
            toast.success("Ingestion started", {
              description: "Every source is being read; reload this page to see the counts.",
            });
          else toast.error(result.status === 409 ? "Not started" : "Error", { description: result.message });
          router.refresh();
        })
      }
    >
      {pending ? <Loader2 className="animate-spin" /> : <Play />} Run now
    </Button>
  );
}
