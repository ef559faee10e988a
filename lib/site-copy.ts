// Product-wide names and links, so copy stays consistent across pages, demo and metadata. Plain constants, so
// client components import them from here without taking in lib/env.ts (lib/site.ts re-exports them).
export const site = {
  name: "Agora",
  tagline: "Discover and Transact with MonetizedMCP servers",
  headline: "Where AI Agents Do Business",
  description:
    "Agora is a marketplace and registry for MonetizedMCP servers: AI agents discover paid tools and pay them directly in USDC on Base.",
  socialUrl: "https://x.com/agora_mcp",
  githubUrl: "https://github.com/agora-mcp",
  paymentMethod: "USDC_BASE_SEPOLIA",
  // Reverse-DNS namespace of every server name in the registry API and of Agora's `_meta` key. The same on every
  // deployment: it names the software's extension, as every copy of the official registry writes
  // `io.modelcontextprotocol.registry/official`, so a registry client reads any Agora with one key. It is no address.
  registryNamespace: "dev.agora-mcp",
  mcpPath: "/api/mcp",
} as const;

export const mainNav = [
  { href: "/how-it-works", label: "How It Works" },
  { href: "/getting-started", label: "Getting Started" },
  { href: "/marketplace", label: "Marketplace" },
  { href: "/submit", label: "Submit Server" },
] as const;
