import type { Metadata } from "next";
import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import { ArrowLeft } from "lucide-react";
import { OAuthSignInButton } from "@/components/auth/oauth-sign-in-button";
import { DomainClaimPanel } from "@/components/claims/domain-claim-panel";
import { oauthProviders } from "@/lib/auth/authjs";
import { currentUser } from "@/lib/auth/current-user";
import { claimPage } from "@/lib/claims/claim-listing";
import { hostWellKnownUrl, wellKnownUrl } from "@/lib/claims/domain-proof";
import { getDb } from "@/lib/database";

export const metadata: Metadata = { title: "Claim a listing", robots: { index: false } };

function githubStatus(login: string | null, account: string): string {
  if (!login) return "You are not signed in with GitHub.";
  if (login.toLowerCase() === account)
    return `You are signed in as GitHub @${login}: sign in with GitHub again to claim listings imported since your last sign-in.`;
  return `You are signed in as GitHub @${login}, and your last GitHub sign-in did not show you as @${account} or as an owner of the organisation ${account} (members who are not owners cannot claim its names).`;
}

export default async function ClaimListingPage({ params }: { params: Promise<{ id: string }> }) {
  const user = await currentUser();
  if (!user) redirect("/login");
  const claim = await claimPage(await getDb(), user.id, (await params).id);
  if (!claim) notFound();
  const { listing, namespace, state } = claim;

  return (
    <div className="mx-auto max-w-2xl px-4 py-12 sm:px-6">
      <Link
        href={`/marketplace/${listing.slug}`}
        className="inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground"
      >
        <ArrowLeft className="size-4" /> {listing.name}
      </Link>
      <h1 className="mt-4 text-3xl font-bold tracking-tight break-words">Claim {listing.name}</h1>
      <p className="mt-2 text-muted-foreground">
        This listing was imported from the MCP Registry as{" "}
        <code className="font-mono text-sm break-all text-foreground">{listing.upstreamName}</code>. Its publisher can
        claim it, by the registry&apos;s own namespace rules, and then edit it like a listing submitted here.
      </p>

      <section className="mt-8 grid gap-4" aria-label="How to claim" data-testid="claim-method">
        {state === "mine" ? (
          <p className="rounded-lg border p-4">
            This listing is yours. Edit it from{" "}
            <Link
              href="/account#claimed-listings"
              className="font-medium text-primary underline-offset-4 hover:underline"
            >
              your account
            </Link>
            .
          </p>
        ) : state === "taken" ? (
          <p className="rounded-lg border p-4">This listing has already been claimed by its publisher.</p>
        ) : !namespace ? (
          <p className="rounded-lg border p-4">
            <code className="font-mono text-sm">{listing.upstreamName}</code> is neither an io.github name nor a
            reverse-DNS name, so no rule can prove who publishes it.
          </p>
        ) : namespace.kind === "github" ? (
          <>
            <h2 className="text-xl font-semibold">Sign in with GitHub</h2>
            <p>
              Names under <code className="font-mono text-sm">{namespace.namespace}/</code> belong to the GitHub account{" "}
              <strong>@{namespace.account}</strong> or, if that is an organisation, to its owners. Signing in with
              GitHub as @{namespace.account} (or as an owner of the organisation) claims every such listing at once;
              they then appear under Claimed listings on your account page.
            </p>
            <p className="text-sm text-muted-foreground" data-testid="github-status">
              {githubStatus(user.githubLogin, namespace.account)}
            </p>
            {oauthProviders().github && (
              <div className="sm:max-w-xs">
                <OAuthSignInButton provider="github" purpose="claim" label="Sign in with GitHub to claim" />
              </div>
            )}
          </>
        ) : namespace.kind === "host" ? (
          <>
            <h2 className="text-xl font-semibold">Prove you run {namespace.host}</h2>
            <p>
              The name <code className="font-mono text-sm break-all">{listing.upstreamName}</code> does not cover the
              server&apos;s host <strong>{namespace.host}</strong>: anyone may publish a registry name pointing at any
              server, so only the server&apos;s host can say who runs it. Publish a one-time token in a file on the
              server&apos;s own origin and verify; the listings there whose names do not cover the host become yours,
              even if someone claimed them before.
            </p>
            <DomainClaimPanel
              listingId={listing.id}
              domain={namespace.host}
              fileUrl={hostWellKnownUrl(namespace.origin, namespace.host)}
              hostOnly
            />
          </>
        ) : (
          <>
            <h2 className="text-xl font-semibold">Prove you control {namespace.domain}</h2>
            <p>
              Names under <code className="font-mono text-sm">{namespace.namespace}/</code> belong to whoever controls
              the domain <strong>{namespace.domain}</strong>. Agora gives you a one-time token; publish it at the
              domain, on its website or in its DNS, and verify.
            </p>
            <DomainClaimPanel
              listingId={listing.id}
              domain={namespace.domain}
              fileUrl={wellKnownUrl(namespace.domain)}
            />
          </>
        )}
      </section>
    </div>
  );
}
