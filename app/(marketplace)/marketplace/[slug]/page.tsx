import type { Metadata } from "next";
import Link from "next/link";
import { notFound, permanentRedirect } from "next/navigation";
import { ArrowLeft, CalendarDays, ExternalLink, FileJson, Globe, Server } from "lucide-react";
import { CodeBlock } from "@/components/content/code-block";
import { ClaimListingLink } from "@/components/claims/claim-listing-link";
import { CopyButton } from "@/components/content/copy-button";
import { InstallButtons } from "@/components/content/install-buttons";
import { BuyerReviews } from "@/components/listings/buyer-reviews";
import { BuyerRating } from "@/components/listings/buyer-rating";
import { DriftNotes } from "@/components/listings/drift-notes";
import { TestPurchaseBadge } from "@/components/listings/test-purchase-badge";
import { DeliveryLine } from "@/components/listings/delivery-line";
import { TestPurchaseLine } from "@/components/listings/test-purchase-line";
import { ToolsAndPrices } from "@/components/listings/tools-and-prices";
import { DeprecatedNotice, ProvenanceNote } from "@/components/listings/provenance-note";
import { CategoryChips, PriceTag, StatusBadges } from "@/components/marketplace/listing-badges";
import { getCanonicalSlug, getDailySales, getListing, getProvenance, getStatusHistory } from "@/lib/listings/catalogue";
import { SalesPanel } from "@/components/listings/sales-panel";
import { env } from "@/lib/env";
import { getClaimOffer } from "@/lib/claims/offer";
import { StatusStrip } from "@/components/marketplace/status-strip";
import { clientConfigFor } from "@/lib/listings/presenters/connect-config";
import { checksText, paidIn } from "@/lib/listings/presenters/price-rows";
import { paymentLine } from "@/lib/listings/presenters/payment-style";
import { formatCheckedAt, formatListedDate, isFree } from "@/lib/listings/format";
import { isListingId } from "@/lib/listings/keys";
import { getBuyerReviews } from "@/lib/buyer-reviews/page-data";
import { site, siteUrl } from "@/lib/site";

type Params = Promise<{ slug: string }>;

// Each detail page renders on first request and is then served from the full-route cache until an
// approval revalidates the listings tag (or five minutes pass).
export const revalidate = 300;
export function generateStaticParams() {
  return [];
}

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const key = (await params).slug;
  // An id only redirects to the slug's page (below); its metadata is never shown.
  if (isListingId(key)) return { robots: { index: false } };
  const listing = await getListing(key);
  if (!listing) return { title: "Server not found", robots: { index: false } };
  const description = listing.description.length > 160 ? `${listing.description.slice(0, 157)}…` : listing.description;
  return {
    title: `${listing.name} — MCP server`,
    description,
    alternates: { canonical: `/marketplace/${listing.slug}` },
    openGraph: { title: listing.name, description, url: `/marketplace/${listing.slug}`, type: "website" },
  };
}

export default async function ListingPage({ params }: { params: Params }) {
  const key = (await params).slug;
  if (isListingId(key)) {
    // The route cache keeps neither redirects nor 404s.
    const slug = await getCanonicalSlug(key);
    if (slug) permanentRedirect(`/marketplace/${slug}`);
    notFound();
  }
  const listing = await getListing(key);
  if (!listing) notFound();
  // Independent reads: asked together, the page waits for the slowest instead of the sum.
  const [history, provenance, daily, buyerReviews, claimable] = await Promise.all([
    getStatusHistory(listing.id),
    getProvenance(listing.id),
    getDailySales(listing.id),
    getBuyerReviews(listing.id),
    getClaimOffer(listing.id),
  ]);
  const probe = listing.probe;
  const payment = paymentLine(probe);

  const jsonLd = {
    "@context": "https://schema.org",
    "@type": "SoftwareApplication",
    name: listing.name,
    description: listing.description,
    applicationCategory: "DeveloperApplication",
    applicationSubCategory: listing.categories.join(", "),
    url: `${siteUrl()}/marketplace/${listing.slug}`,
    datePublished: listing.createdAt,
    offers: { "@type": "Offer", price: isFree(listing.price) ? "0" : String(listing.price), priceCurrency: "USD" },
  };

  return (
    <div className="mx-auto max-w-5xl px-4 py-10 sm:px-6 sm:py-14">
      <script
        type="application/ld+json"
        dangerouslySetInnerHTML={{ __html: JSON.stringify(jsonLd).replace(/</g, "\\u003c") }}
      />
      <Link
        href="/marketplace"
        className="inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground"
      >
        <ArrowLeft className="size-4" /> Back to marketplace
      </Link>

      <header className="mt-6 flex flex-col gap-4 border-b pb-8 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-2" data-testid="status-badges">
            <StatusBadges listing={listing} />
            <TestPurchaseBadge listing={listing} />
          </div>
          <h1 className="mt-2 text-3xl font-bold tracking-tight break-words sm:text-4xl">{listing.name}</h1>
          <div className="mt-3">
            <CategoryChips categories={listing.categories} max={10} />
          </div>
          <div className="mt-2">
            <BuyerRating summary={listing.buyerReviews} />
          </div>
          <div className="mt-3">
            <TestPurchaseLine testPurchase={listing.testPurchase} />
            <DeliveryLine counts={listing.delivery30d} />
          </div>
        </div>
        <div className="shrink-0 rounded-xl border bg-muted/40 px-5 py-4 sm:text-right">
          <p className="text-xs font-medium tracking-wide text-muted-foreground uppercase">Price</p>
          <p className="mt-1">
            <PriceTag price={listing.price} className="text-2xl" />
          </p>
          <p className="mt-1 text-xs text-muted-foreground">
            {isFree(listing.price) ? "No payment needed" : `Lowest priced item, ${paidIn(probe?.paymentMethods ?? [])}`}
          </p>
          {payment && (
            <p className="mt-1 text-xs text-muted-foreground" data-testid="payment-style">
              {payment}
            </p>
          )}
          <div className="mt-2 max-w-xs text-left">
            <DriftNotes drift={listing.drift} kinds={["price"]} />
          </div>
        </div>
      </header>
      <DeprecatedNotice listing={listing} />

      <div className="mt-8 grid grid-cols-[minmax(0,1fr)] gap-10 lg:grid-cols-[minmax(0,1fr)_18rem]">
        <div className="min-w-0 space-y-10">
          <section>
            <h2 className="text-lg font-semibold">About</h2>
            <p className="mt-3 leading-7 whitespace-pre-line text-foreground/90">{listing.description}</p>
          </section>

          <ToolsAndPrices probe={probe} />

          <SalesPanel
            sales={listing.sales}
            daily={daily}
            readEverySeconds={env().SALES_INDEX_INTERVAL_SECONDS}
            channelItems={probe?.pricedItems.some((i) => i.x402Requirements?.scheme === "batch-settlement") ?? false}
          />
          <BuyerReviews summary={listing.buyerReviews} reviews={buyerReviews} />

          <section>
            <h2 className="text-lg font-semibold">How to connect</h2>
            <p className="mt-3 text-sm text-muted-foreground">
              Add the {site.name} client to your desktop assistant (Settings › Developer › Edit Config), then ask your
              agent to use <strong>{listing.name}</strong>. The client finds this server in the registry and pays it
              from your local wallet. See{" "}
              <Link href="/getting-started" className="font-medium text-primary underline underline-offset-4">
                Getting Started
              </Link>
              .
            </p>
            <CodeBlock code={clientConfigFor()} lang="json" title="claude_desktop_config.json" />
            <InstallButtons />
          </section>
        </div>

        <aside className="space-y-6 text-sm">
          <div>
            <h2 className="flex items-center gap-1.5 font-semibold">
              <Server className="size-4 text-muted-foreground" /> Server URL
            </h2>
            <div className="mt-2 flex items-center gap-2 rounded-md border bg-muted/40 p-2">
              <code className="min-w-0 flex-1 truncate font-mono text-xs" title={listing.serverUrl}>
                {listing.serverUrl}
              </code>
              <CopyButton value={listing.serverUrl} label="Copy URL" />
            </div>
          </div>
          <div>
            <h2 className="flex items-center gap-1.5 font-semibold">
              <FileJson className="size-4 text-muted-foreground" /> Server card
            </h2>
            <p className="mt-2 text-muted-foreground">
              <a
                href={`/servers/${listing.slug}/server-card`}
                className="font-medium text-primary underline-offset-4 hover:underline"
                data-testid="server-card-link"
              >
                MCP server card
              </a>{" "}
              (JSON): what a client reads before it connects.
            </p>
          </div>
          {listing.websiteUrl && (
            <div>
              <h2 className="flex items-center gap-1.5 font-semibold">
                <Globe className="size-4 text-muted-foreground" /> Website
              </h2>
              <a
                href={listing.websiteUrl}
                target="_blank"
                rel="noopener noreferrer nofollow"
                className="mt-2 inline-flex items-center gap-1 break-all text-primary underline-offset-4 hover:underline"
              >
                {listing.websiteUrl.replace(/^https?:\/\//, "")} <ExternalLink className="size-3.5 shrink-0" />
              </a>
            </div>
          )}
          <div>
            <h2 className="flex items-center gap-1.5 font-semibold">
              <CalendarDays className="size-4 text-muted-foreground" /> Listed
            </h2>
            <p className="mt-2 text-muted-foreground">
              <time dateTime={listing.createdAt}>{formatListedDate(listing.createdAt)}</time>
            </p>
            {provenance && <ProvenanceNote listing={provenance} />}
            {claimable && <ClaimListingLink listingId={listing.id} />}
          </div>
          <div>
            <h2 className="font-semibold">Status</h2>
            <p className="mt-1 text-muted-foreground">
              {listing.uptime.uptimePct === null
                ? "No automatic checks yet."
                : `${listing.uptime.uptimePct}% of ${checksText(listing.uptime.checks)} answered${listing.uptime.medianLatencyMs !== null ? ` · median ${listing.uptime.medianLatencyMs} ms` : ""}`}
            </p>
            {probe && (
              <p className="mt-1 text-muted-foreground" data-testid="last-checked">
                Last checked <time dateTime={probe.checkedAt}>{formatCheckedAt(probe.checkedAt)}</time>:{" "}
                {probe.reachable ? "reachable" : "not reachable"}
              </p>
            )}
            {probe?.reachable && probe.protocolVersion && (
              <p className="mt-1 text-muted-foreground" data-testid="protocol-version">
                Speaks MCP {probe.protocolVersion}
                {probe.protocolVersion >= "2026-07-28" ? " (stateless, no handshake)" : ""}
              </p>
            )}
            <div className="mt-2">
              <StatusStrip uptime={history} />
            </div>
          </div>
          <div className="rounded-lg border bg-muted/30 p-4 text-muted-foreground">
            <p>
              <strong className="text-foreground">Verified</strong> means the listing was approved and its latest
              automatic check found a reachable MonetizedMCP server that accepts {site.paymentMethod}.{" "}
              <Link href="/how-it-works" className="text-primary underline underline-offset-4">
                How it works
              </Link>
            </p>
          </div>
        </aside>
      </div>
    </div>
  );
}
