import type { Metadata } from "next";
import Link from "next/link";

export const metadata: Metadata = { title: "Submit Server", description: "List your MonetizedMCP server on the marketplace." };

export default function SubmitPage() {
  return (
    <div className="mx-auto max-w-2xl px-4 py-12 sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight">Submit MonetizedMCP Server</h1>
      <p className="mt-3 text-muted-foreground">
        Host your server, submit it for review, and once approved it becomes discoverable by humans and AI agents. New to hosting? Follow the{" "}
        <Link href="/guides/aws-step-by-step" target="_blank" className="font-medium text-primary underline underline-offset-4">
          deployment guide
        </Link>
        .
      </p>
    </div>
  );
}
