import type { Metadata } from "next";
import { ProsePage } from "@/components/content/prose-page";
import SetupAndUsage from "@/content/guides/setup-and-usage.mdx";

export const metadata: Metadata = {
  title: "Setup and Usage Guide",
  description: "Set up the desktop agent client, fund your wallet, use Agora, build a MonetizedMCP server and connect agent frameworks.",
  alternates: { canonical: "/guides/setup-and-usage" },
  openGraph: { title: "Setup and Usage Guide", description: "Set up the desktop agent client, fund your wallet, use Agora, build a MonetizedMCP server and connect agent frameworks.", url: "/guides/setup-and-usage", type: "article" },
};

export default function Page() {
  return (
    <ProsePage eyebrow="Guide">
      <SetupAndUsage />
    </ProsePage>
  );
}
