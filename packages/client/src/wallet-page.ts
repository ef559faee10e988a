// The registry site's page for this wallet (/wallet/{address}): its USDC balance read from the chain, its purchases
// from listed servers and a QR code of the address, so a person funds it without a terminal. The site is the one
// whose registry the client searches: AGORA_REGISTRY_URL is `{site}/api`.
export function walletPageUrl(registryUrl: string, address: string): string {
  const url = new URL(registryUrl);
  const site = url.pathname.replace(/\/+$/, "").endsWith("/api")
    ? `${url.origin}${url.pathname.replace(/\/+$/, "").slice(0, -"/api".length)}`
    : url.origin;
  return `${site}/wallet/${address}`;
}
