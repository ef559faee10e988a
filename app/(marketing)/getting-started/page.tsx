import type { Metadata } from "next";
import { ProsePage } from "@/components/content/prose-page";
import GettingStarted from "@/content/guides/getting-started.mdx";

export const metadata: Metadata = {
  title: "Getting Started",
  description: "Add the Agora registry to your desktop AI assistant in four steps and make your first paid MCP tool call.",
  alternates: { canonical: "/getting-started" },
  openGraph: { title: "Getting Started", description: "Add the Agora registry to your desktop AI assistant in four steps and make your first paid MCP tool call.", url: "/getting-started", type: "article" },
};

export default function Page() {
  return (
    <ProsePage eyebrow="Guide">
      <GettingStarted />
    </ProsePage>
  );
}
