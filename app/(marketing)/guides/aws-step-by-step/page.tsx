import type { Metadata } from "next";
import { ProsePage } from "@/components/content/prose-page";
import AwsStepByStep from "@/content/guides/aws-step-by-step.mdx";

export const metadata: Metadata = {
  title: "Deploying MCP Server to AWS App Runner using ECR",
  description: "Deploy a MonetizedMCP server to AWS App Runner from a private ECR image in six steps.",
  alternates: { canonical: "/guides/aws-step-by-step" },
  openGraph: { title: "Deploying MCP Server to AWS App Runner using ECR", description: "Deploy a MonetizedMCP server to AWS App Runner from a private ECR image in six steps.", url: "/guides/aws-step-by-step", type: "article" },
};

export default function Page() {
  return (
    <ProsePage eyebrow="Deployment guide">
      <AwsStepByStep />
    </ProsePage>
  );
}
