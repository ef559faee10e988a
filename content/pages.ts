// The long-form pages that are an MDX file in the prose frame and nothing more, by path: app/(marketing)/[...page]
// prerenders each of them (and only them) with its title, description and canonical address.
import type { MDXContent } from "mdx/types";
import Agents from "./guides/agents.mdx";
import AwsStepByStep from "./guides/aws-step-by-step.mdx";
import GettingStarted from "./guides/getting-started.mdx";
import LocalTestingGuide from "./guides/local-testing-guide.mdx";
import SetupAndUsage from "./guides/setup-and-usage.mdx";
import PrivacyPolicy from "./legal/privacy-policy.mdx";
import TermsOfService from "./legal/terms-of-service.mdx";
import HowItWorks from "./marketing/how-it-works.mdx";

export type ContentPage = { title: string; description: string; eyebrow: string; Content: MDXContent };

export const contentPages: Record<string, ContentPage> = {
  "/getting-started": {
    title: "Getting Started",
    description:
      "Add the Agora registry to your desktop AI assistant in four steps and make your first paid MCP tool call.",
    eyebrow: "Guide",
    Content: GettingStarted,
  },
  "/how-it-works": {
    title: "How It Works",
    description:
      "How AI agents discover MonetizedMCP servers in the registry and pay them directly in USDC on Base, with payment verified and settled before delivery.",
    eyebrow: "Overview",
    Content: HowItWorks,
  },
  "/privacy-policy": {
    title: "Privacy Policy",
    description: "What personal data Agora collects, why, how long it is kept and the rights you have over it.",
    eyebrow: "Legal",
    Content: PrivacyPolicy,
  },
  "/terms-of-service": {
    title: "Terms of Service",
    description: "The terms that govern listing, discovering and paying for MonetizedMCP servers on Agora.",
    eyebrow: "Legal",
    Content: TermsOfService,
  },
  "/guides/agents": {
    title: "Registry for Agents",
    description:
      "Add the Agora registry to an MCP host in one config block: tools to search MonetizedMCP servers, and JSON APIs including the official MCP Registry format.",
    eyebrow: "Guide",
    Content: Agents,
  },
  "/guides/aws-step-by-step": {
    title: "Deploying MCP Server to AWS App Runner using ECR",
    description: "Deploy a MonetizedMCP server to AWS App Runner from a private ECR image in six steps.",
    eyebrow: "Deployment guide",
    Content: AwsStepByStep,
  },
  "/guides/local-testing-guide": {
    title: "Local Testing Guide",
    description: "Test your MonetizedMCP server locally with an MCP host before you deploy and submit it.",
    eyebrow: "Guide",
    Content: LocalTestingGuide,
  },
  "/guides/setup-and-usage": {
    title: "Setup and Usage Guide",
    description:
      "Set up the desktop agent client, fund your wallet, use Agora, build a MonetizedMCP server and connect agent frameworks.",
    eyebrow: "Guide",
    Content: SetupAndUsage,
  },
};
