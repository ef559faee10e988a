import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { headers } from "next/headers";
import { connection } from "next/server";
import { AddressQr } from "@/components/wallet/address-qr";
import { WalletBalances } from "@/components/wallet/wallet-balances";
import { WalletPurchases } from "@/components/wallet/wallet-purchases";
import { CopyButton } from "@/components/content/copy-button";
import { clientIp } from "@/lib/http/client-address";
import { walletAddress, walletView, type NetworkBalance } from "@/lib/wallet/page-data";

type Params = Promise<{ address: string }>;
type SearchParams = Promise<{ balance?: string | string[] }>;

// A person's wallet, not a page for search engines: never indexed, never in the sitemap (app/sitemap.ts).
export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const address = walletAddress((await params).address);
  return {
    title: address ? `Wallet ${address.slice(0, 6)}…${address.slice(-4)}` : "Wallet not found",
    robots: { index: false, follow: false },
  };
}

/** GET /wallet/{address}: where a first-time user sees what to fund and whether the funds arrived. */
export default async function WalletPage({ params, searchParams }: { params: Params; searchParams: SearchParams }) {
  // Read at request time (the chain moves), and through a short cache in walletView.
  await connection();
  const address = walletAddress((await params).address);
  if (!address) notFound();
  // "Show balance" asks for a reading of an address with no purchases (walletView reads none unasked).
  const view = await walletView(address, {
    client: clientIp({ headers: await headers() }),
    balanceAsked: (await searchParams).balance === "show",
  });
  return (
    <div className="mx-auto max-w-4xl px-4 py-10 sm:px-6 sm:py-14">
      <p className="text-sm font-medium text-muted-foreground">Agent wallet</p>
      <h1 className="mt-1 text-3xl font-bold tracking-tight sm:text-4xl">Fund your agent&apos;s wallet</h1>
      <div className="mt-6 flex flex-col gap-6 border-b pb-8 sm:flex-row sm:items-start">
        <AddressQr address={address} />
        <div className="min-w-0 space-y-3">
          <p className="text-sm text-muted-foreground" data-testid="fund-line">
            Send USDC on {fundingNetworks(view.balances)} to this address. It is the wallet the Agora client keeps on
            your computer; only that computer holds its key.
          </p>
          <div className="flex items-center gap-2 rounded-md border bg-muted/40 p-2">
            <code className="min-w-0 flex-1 font-mono text-sm break-all" data-testid="wallet-address">
              {address}
            </code>
            <CopyButton value={address} />
          </div>
          <p className="text-sm text-muted-foreground">
            Balances below are read from the chain and refresh every few seconds
            {view.balances.some((b) => b.faucetUrl) ? "; faucet tokens take a few minutes to arrive" : ""}. New here?
            See{" "}
            <Link
              href="/guides/setup-and-usage#your-wallet"
              className="font-medium text-primary underline underline-offset-4"
            >
              Your Wallet
            </Link>{" "}
            in the Setup and Usage Guide.
          </p>
        </div>
      </div>
      <section className="mt-8" aria-labelledby="balance-heading">
        <h2 id="balance-heading" className="text-lg font-semibold">
          USDC balance
        </h2>
        <WalletBalances balances={view.balances} showHref={`/wallet/${address}?balance=show`} />
      </section>
      <section className="mt-10" aria-labelledby="purchases-heading">
        <h2 id="purchases-heading" className="text-lg font-semibold">
          Purchases from listed servers
        </h2>
        <p className="mt-1 text-sm text-muted-foreground">
          Payments from this address to servers listed on Agora, as read from the chain.
        </p>
        <WalletPurchases purchases={view.purchases} />
      </section>
    </div>
  );
}

/** The networks this site reads, by name ("Base Sepolia (a test network)"): the preview must not say "Base" alone. */
function fundingNetworks(balances: NetworkBalance[]): string {
  const names = balances.map((b) =>
    b.localRpc ? `${b.label} (a local chain on this machine)` : b.testnet ? `${b.label} (a test network)` : b.label,
  );
  return names.length > 1 ? `${names.slice(0, -1).join(", ")} or ${names.at(-1)}` : (names[0] ?? "Base");
}
