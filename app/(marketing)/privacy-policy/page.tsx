import type { Metadata } from "next";
import { ProsePage } from "@/components/content/prose-page";
import PrivacyPolicy from "@/content/legal/privacy-policy.mdx";

export const metadata: Metadata = {
  title: "Privacy Policy",
  description: "What personal data Agora collects, why, how long it is kept and the rights you have over it.",
  alternates: { canonical: "/privacy-policy" },
  openGraph: { title: "Privacy Policy", description: "What personal data Agora collects, why, how long it is kept and the rights you have over it.", url: "/privacy-policy", type: "article" },
};

export default function Page() {
  return (
    <ProsePage eyebrow="Legal">
      <PrivacyPolicy />
    </ProsePage>
  );
}
