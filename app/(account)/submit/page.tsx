import type { Metadata } from "next";
import Link from "next/link";
import { ListChecks } from "lucide-react";
import { SubmitLoginCard } from "@/components/submit/submit-login-card";
import { SubmitServerForm } from "@/components/submit/submit-server-form";
import { oauthProviders } from "@/lib/auth/authjs";
import { currentUserId } from "@/lib/auth/current-user";

export const metadata: Metadata = {
  title: "Submit Server",
  description: "List your MonetizedMCP server on the marketplace.",
};

export default async function SubmitPage() {
  const signedIn = Boolean(await currentUserId());
  return (
    <div className="mx-auto max-w-2xl px-4 py-12 sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight">Submit MonetizedMCP Server</h1>
      <p className="mt-3 text-muted-foreground">
        Host your server, submit it for review, and once approved it becomes discoverable by humans and AI agents. New
        to hosting? Follow the{" "}
        <Link
          href="/guides/aws-step-by-step"
          target="_blank"
          className="font-medium text-primary underline underline-offset-4"
        >
          deployment guide
        </Link>
        .
      </p>
      {signedIn ? (
        <>
          <p className="mt-4 flex items-center gap-2 text-sm text-muted-foreground">
            <ListChecks className="size-4 text-primary" aria-hidden="true" />
            <span>
              Track review status under{" "}
              <Link
                href="/account#your-servers"
                className="font-medium text-primary underline-offset-4 hover:underline"
              >
                Your servers
              </Link>
              .
            </span>
          </p>
          <div className="mt-8 rounded-xl border bg-card p-5 shadow-sm sm:p-8">
            <SubmitServerForm />
          </div>
        </>
      ) : (
        <SubmitLoginCard methods={oauthProviders()} />
      )}
    </div>
  );
}
