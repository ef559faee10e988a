import type { Metadata } from "next";
import { ProsePage } from "@/components/content/prose-page";
import LocalTestingGuide from "@/content/guides/local-testing-guide.mdx";

export const metadata: Metadata = {
  title: "Local Testing Guide",
  description: "Test your MonetizedMCP server locally with an MCP host before you deploy and submit it.",
  alternates: { canonical: "/guides/local-testing-guide" },
  openGraph: { title: "Local Testing Guide", description: "Test your MonetizedMCP server locally with an MCP host before you deploy and submit it.", url: "/guides/local-testing-guide", type: "article" },
};

export default function Page() {
  return (
    <ProsePage eyebrow="Guide">
      <LocalTestingGuide />
    </ProsePage>
  );
}
