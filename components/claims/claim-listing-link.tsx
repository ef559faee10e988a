"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { BadgeCheck } from "lucide-react";
import { useSignedIn } from "@/components/layout/use-signed-in";

/** "Claim this listing", for signed-in people only (the detail page itself is cached for everyone). */
export function ClaimListingLink({ listingId }: { listingId: string }) {
  const signedIn = useSignedIn(usePathname());
  if (!signedIn) return null;
  return (
    <Link
      href={`/claim/${listingId}`}
      className="mt-2 inline-flex items-center gap-1 text-sm font-medium text-primary underline-offset-4 hover:underline"
    >
      <BadgeCheck className="size-4" /> Claim this listing
    </Link>
  );
}
