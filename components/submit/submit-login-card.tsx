import Link from "next/link";
import { OAuthSignInButton } from "@/components/auth/oauth-sign-in-button";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import { site } from "@/lib/site";

/** What a signed-out visitor sees on /submit: sign in first. */
export function SubmitLoginCard({ githubOffered }: { githubOffered: boolean }) {
  return (
    <Card className="mx-auto mt-10 max-w-md gap-5 text-center">
      <CardHeader>
        <h2 data-slot="card-title" className="text-xl font-semibold tracking-tight text-balance">
          List Your MonetizedMCP Server with {site.name}
        </h2>
        <CardDescription>Enter with your github account</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {githubOffered ? (
          <OAuthSignInButton provider="github" label="Login with Github" />
        ) : (
          <p role="note" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
            GitHub sign-in is not available on this server.
          </p>
        )}
        <p className="text-sm text-muted-foreground">
          Or{" "}
          <Link href="/login/email" className="font-medium text-primary underline-offset-4 hover:underline">
            sign in with email
          </Link>{" "}
          ·{" "}
          <Link href="/register" className="font-medium text-primary underline-offset-4 hover:underline">
            create an account
          </Link>
        </p>
      </CardContent>
    </Card>
  );
}
