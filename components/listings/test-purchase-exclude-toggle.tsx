"use client";
import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { toast } from "sonner";
import { excludeTestItem } from "@/lib/actions/exclude-test-item";

/** One item's "let Agora test-buy it" switch, for the listing's owner. */
export function TestPurchaseExcludeToggle({
  listingId,
  item,
  name,
  excluded,
}: {
  listingId: string;
  item: string;
  name: string;
  excluded: boolean;
}) {
  const router = useRouter();
  const [pending, start] = useTransition();
  return (
    <label className="flex items-center gap-2 text-sm">
      <input
        type="checkbox"
        className="size-4 accent-primary"
        checked={!excluded}
        disabled={pending}
        onChange={(e) =>
          start(async () => {
            const result = await excludeTestItem({ listingId, item, excluded: !e.target.checked });
            if (result.ok) router.refresh();
            else toast.error("Error", { description: result.message });
          })
        }
      />
      <span className="min-w-0 break-words">{name}</span>
    </label>
  );
}
