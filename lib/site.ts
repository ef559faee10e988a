// Product-wide names and links, so copy stays consistent across pages, demo and metadata.
export const site = {
  name: "Agora",
  tagline: "Discover and Transact with MonetizedMCP servers",
  headline: "Where AI Agents Do Business",
  description:
    "Agora is a marketplace and registry for MonetizedMCP servers: AI agents discover paid tools and pay them directly in USDC on Base.",
  contactEmail: "hello@agora-mcp.dev",
  socialUrl: "https://x.com/agora_mcp",
  githubUrl: "https://github.com/agora-mcp",
  clientPackage: "@agora-mcp/client",
  paymentMethod: "USDC_BASE_SEPOLIA",
  // Reverse-DNS namespace of every server name in the registry API (agora-mcp.dev reversed).
  registryNamespace: "dev.agora-mcp",
  mcpPath: "/api/mcp",
} as const;

export const mainNav = [
  { href: "/how-it-works", label: "How It Works" },
  { href: "/getting-started", label: "Getting Started" },
  { href: "/marketplace", label: "Marketplace" },
  { href: "/submit", label: "Submit Server" },
] as const;

/** Absolute origin for canonical URLs, sitemaps and Open Graph. */
export function siteUrl(): string {
  return (process.env.SITE_URL || "http://localhost:3000").replace(/\/$/, "");
}
