import Link from "next/link";
import { OAuthSignInButton } from "@/components/auth/oauth-sign-in-button";
import { Button } from "@/components/ui/button";
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
          <>
            <OAuthSignInButton provider="github" label="Login with Github" />
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
          </>
        ) : (
          // No GitHub app on this server: email is the way in, offered as the main action rather than under a warning.
          <>
            <Button asChild size="lg">
              <Link href="/login/email">Sign in with email</Link>
            </Button>
            <p className="text-sm text-muted-foreground">
              This server signs in with email only.{" "}
              <Link href="/register" className="font-medium text-primary underline-offset-4 hover:underline">
                Create an account
              </Link>
            </p>
          </>
        )}
      </CardContent>
    </Card>
  );
}
