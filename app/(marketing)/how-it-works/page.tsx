import type { Metadata } from "next";
import { ProsePage } from "@/components/content/prose-page";
import HowItWorks from "@/content/marketing/how-it-works.mdx";

export const metadata: Metadata = {
  title: "How It Works",
  description: "How AI agents discover MonetizedMCP servers in the registry and pay them directly in USDC on Base, with payment verified and settled before delivery.",
  alternates: { canonical: "/how-it-works" },
  openGraph: { title: "How It Works", description: "How AI agents discover MonetizedMCP servers in the registry and pay them directly in USDC on Base, with payment verified and settled before delivery.", url: "/how-it-works", type: "article" },
};

export default function Page() {
  return (
    <ProsePage eyebrow="Overview">
      <HowItWorks />
    </ProsePage>
  );
}
