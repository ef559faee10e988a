import { PackageCheck, Radio } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import type { ListingView } from "@/lib/listings/model";

/**
 * How far Agora's own checks went: "Delivery tested" when its latest test purchase paid and got the result back,
 * "Reachable" when the server only answered its latest check. Nothing for a server that did neither.
 */
export function TestPurchaseBadge({ listing }: { listing: Partial<Pick<ListingView, "probe" | "testPurchase">> }) {
  if (listing.testPurchase?.outcome === "delivered") {
    return (
      <Badge variant="success" title={listing.testPurchase.summary} data-testid="delivery-badge">
        <PackageCheck /> Delivery tested
      </Badge>
    );
  }
  if (listing.probe?.reachable) {
    return (
      <Badge
        variant="outline"
        title="Answered Agora's latest check; no test purchase has been delivered yet"
        data-testid="delivery-badge"
      >
        <Radio /> Reachable
      </Badge>
    );
  }
  return null;
}
