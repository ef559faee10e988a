import type { Metadata } from "next";
import { ProsePage } from "@/components/content/prose-page";
import TermsOfService from "@/content/legal/terms-of-service.mdx";

export const metadata: Metadata = {
  title: "Terms of Service",
  description: "The terms that govern listing, discovering and paying for MonetizedMCP servers on Agora.",
  alternates: { canonical: "/terms-of-service" },
  openGraph: { title: "Terms of Service", description: "The terms that govern listing, discovering and paying for MonetizedMCP servers on Agora.", url: "/terms-of-service", type: "article" },
};

export default function Page() {
  return (
    <ProsePage eyebrow="Legal">
      <TermsOfService />
    </ProsePage>
  );
}
