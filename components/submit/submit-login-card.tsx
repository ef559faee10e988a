import Link from "next/link";
import { OAuthSignInButton } from "@/components/auth/oauth-sign-in-button";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import { submitDescription, type SignInMethods } from "@/lib/auth/sign-in-words";
import { site } from "@/lib/site";

/** What a signed-out visitor sees on /submit: sign in first. */
export function SubmitLoginCard({ methods }: { methods: SignInMethods }) {
  return (
    <Card className="mx-auto mt-10 max-w-md gap-5 text-center">
      <CardHeader>
        <h2 data-slot="card-title" className="text-xl font-semibold tracking-tight text-balance">
          List Your MonetizedMCP Server with {site.name}
        </h2>
        <CardDescription>{submitDescription(methods)}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {methods.github ? (
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
          // No GitHub app on this server: email is the way in (Google beside it when configured), offered as the main action.
          <>
            {methods.google && <OAuthSignInButton provider="google" label="Continue with Google" />}
            <Button asChild size="lg" variant={methods.google ? "outline" : "default"}>
              <Link href="/login/email">Sign in with email</Link>
            </Button>
            <p className="text-sm text-muted-foreground">
              No account yet?{" "}
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
