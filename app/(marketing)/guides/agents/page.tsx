import type { Metadata } from "next";
import { ProsePage } from "@/components/content/prose-page";
import Agents from "@/content/guides/agents.mdx";

const description =
  "Add the Agora registry to an MCP host in one config block: tools to search MonetizedMCP servers, and JSON APIs including the official MCP Registry format.";

export const metadata: Metadata = {
  title: "Registry for Agents",
  description,
  alternates: { canonical: "/guides/agents" },
  openGraph: { title: "Registry for Agents", description, url: "/guides/agents", type: "article" },
};

export default function Page() {
  return (
    <ProsePage eyebrow="Guide">
      <Agents />
    </ProsePage>
  );
}
