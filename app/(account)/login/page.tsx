import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { Mail } from "lucide-react";
import { AuthScreen, OrDivider } from "@/components/auth/auth-screen";
import { OAuthSignInButton } from "@/components/auth/oauth-sign-in-button";
import { Button } from "@/components/ui/button";
import { oauthProviders } from "@/lib/auth/authjs";

export const metadata: Metadata = { title: "Login", robots: { index: false } };

export default async function LoginPage() {
  // Which providers are offered is deployment configuration, read per request.
  await connection();
  const { github, google } = oauthProviders();
  return (
    <AuthScreen
      title="Login"
      description="Enter with your gmail or github account"
      footer={
        <>
          <p>
            No account yet?{" "}
            <Link href="/register" className="font-medium text-primary underline-offset-4 hover:underline">
              Create one with your email
            </Link>
          </p>
          <p>
            <Link href="/forgot-password" className="font-medium text-primary underline-offset-4 hover:underline">
              Forgot your password?
            </Link>
          </p>
        </>
      }
    >
      {github ? (
        <OAuthSignInButton provider="github" label="Continue with GitHub" />
      ) : (
        <p role="note" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          GitHub sign-in is not available: this server has no GitHub app configured. Sign in with your email instead.
        </p>
      )}
      {google && <OAuthSignInButton provider="google" label="Continue with Google" variant="outline" />}
      <OrDivider />
      <Button asChild variant="outline" size="lg" className="w-full">
        <Link href="/login/email">
          <Mail /> Sign in with email
        </Link>
      </Button>
    </AuthScreen>
  );
}
