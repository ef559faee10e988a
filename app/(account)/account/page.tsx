import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { LogOut, Plus } from "lucide-react";
import { ApiTokensPanel } from "@/components/account/api-tokens-panel";
import { ClaimedListings } from "@/components/account/claimed-listings";
import { EmailVerificationNotice } from "@/components/account/email-verification-notice";
import { linkDelivery } from "@/lib/mail";
import { YourServers } from "@/components/account/your-servers";
import { BuyerReviewDesk } from "@/components/listings/buyer-review-desk";
import { reviewDesk } from "@/lib/buyer-reviews/feedback";
import { TestPurchaseOwnerPanel } from "@/components/listings/test-purchase-owner-panel";
import { ownerTestPurchases } from "@/lib/test-purchases/owner";
import { Button } from "@/components/ui/button";
import { getDb } from "@/lib/database";
import { listOwnListings } from "@/lib/listings/owned";
import { listApiTokens } from "@/lib/auth/api-tokens";
import { isAdmin } from "@/lib/auth/admin";
import { currentUser } from "@/lib/auth/current-user";
import { claimedListings } from "@/lib/claims/claim-listing";
import { formatDay, formatDayTime } from "@/lib/dates";

export const metadata: Metadata = { title: "Your account", robots: { index: false } };

export default async function AccountPage() {
  const user = await currentUser();
  if (!user) redirect("/login");
  const db = await getDb();
  const [{ listings, checks, drift, edits }, tokens, buyerReviews, claimed] = await Promise.all([
    listOwnListings(db, user.id),
    listApiTokens(db, user.id),
    reviewDesk(db, { ownerId: user.id }),
    claimedListings(db, user.id),
  ]);
  const testPurchases = await ownerTestPurchases(db, listings);

  return (
    <div className="mx-auto grid max-w-3xl grid-cols-1 gap-12 px-4 py-12 sm:px-6">
      <header className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="min-w-0">
          <h1 className="text-3xl font-bold tracking-tight">Your account</h1>
          <p className="mt-2 text-muted-foreground">
            Signed in as{" "}
            <span className="font-medium text-foreground">{user.name ?? user.githubLogin ?? user.email}</span>
          </p>
          <p className="mt-1 flex flex-wrap gap-x-4 gap-y-1 text-sm text-muted-foreground">
            {user.email && (
              <span className="wrap-anywhere">
                {user.email}
                {user.emailVerifiedAt ? " (confirmed)" : " (not confirmed)"}
              </span>
            )}
            {user.githubLogin && <span className="wrap-anywhere">GitHub @{user.githubLogin}</span>}
            {/* What `npm run admin:grant -- <user id>` and support ask for. */}
            <span className="wrap-anywhere" data-testid="account-id">
              Account id <code className="text-foreground">{user.id}</code>
            </span>
          </p>
          {user.email && !user.emailVerifiedAt && <EmailVerificationNotice delivery={linkDelivery()} />}
          {isAdmin(user) && (
            <p className="mt-2">
              <Link
                href="/admin/review"
                className="text-sm font-medium text-primary underline-offset-4 hover:underline"
              >
                Open the review queue
              </Link>
              {" · "}
              <Link
                href="/admin/sources"
                className="text-sm font-medium text-primary underline-offset-4 hover:underline"
              >
                Ingestion sources
              </Link>
            </p>
          )}
        </div>
        <Button asChild variant="outline" className="self-start sm:self-auto">
          <Link href="/logout">
            <LogOut /> Sign out
          </Link>
        </Button>
      </header>

      <section aria-labelledby="your-servers" className="grid grid-cols-1 gap-4">
        <div className="flex items-center justify-between gap-4">
          <h2 id="your-servers" className="scroll-mt-24 text-xl font-semibold tracking-tight">
            Your servers
          </h2>
          <Button asChild size="sm">
            <Link href="/submit">
              <Plus /> Submit a server
            </Link>
          </Button>
        </div>
        <p className="text-sm text-muted-foreground">
          Submissions stay private until they are approved; then they appear in the marketplace.
        </p>
        <YourServers servers={listings} probes={checks} drift={drift} edits={edits} />
        <TestPurchaseOwnerPanel listings={testPurchases} />
      </section>

      {buyerReviews.length > 0 && <BuyerReviewDesk reviews={buyerReviews} mode="owner" />}
      <section aria-labelledby="claimed-listings" className="grid grid-cols-1 gap-4">
        <h2 id="claimed-listings" className="scroll-mt-24 text-xl font-semibold tracking-tight">
          Claimed listings
        </h2>
        <p className="text-sm text-muted-foreground">
          Listings imported from the MCP Registry that you proved you publish. Edit them under Your servers.
        </p>
        <ClaimedListings listings={claimed} />
      </section>

      <section aria-labelledby="api-tokens" className="grid grid-cols-1 gap-4">
        <h2 id="api-tokens" className="scroll-mt-24 text-xl font-semibold tracking-tight">
          API tokens
        </h2>
        <p className="text-sm text-muted-foreground">
          For scripts that submit servers through <code className="font-mono text-xs">POST /api/mcp-agents</code>.
          Tokens from the sign-in API are listed here too; revoke any you no longer use.
        </p>
        <ApiTokensPanel
          tokens={tokens.map((t) => ({
            id: t.id,
            name: t.name,
            prefix: t.prefix,
            created: formatDay(t.createdAt),
            lastUsed: t.lastUsedAt ? formatDayTime(t.lastUsedAt) : null,
            expires: formatDay(t.expiresAt),
          }))}
        />
      </section>
    </div>
  );
}
