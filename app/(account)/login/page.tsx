import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { Mail } from "lucide-react";
import { AuthScreen, OrDivider } from "@/components/auth/auth-screen";
import { OAuthSignInButton } from "@/components/auth/oauth-sign-in-button";
import { Button } from "@/components/ui/button";
import { oauthProviders } from "@/lib/auth/authjs";
import { loginDescription } from "@/lib/auth/sign-in-words";

export const metadata: Metadata = { title: "Login", robots: { index: false } };

export default async function LoginPage() {
  // Which providers are offered is deployment configuration, read per request.
  await connection();
  const methods = oauthProviders();
  const { github, google } = methods;
  return (
    <AuthScreen
      title="Login"
      description={loginDescription(methods)}
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
      {github && <OAuthSignInButton provider="github" label="Continue with GitHub" />}
      {google && (
        <OAuthSignInButton provider="google" label="Continue with Google" variant={github ? "outline" : "default"} />
      )}
      {(github || google) && <OrDivider />}
      {/* Email is the main action when no provider app is configured: only the ways that work are offered. */}
      <Button asChild variant={github || google ? "outline" : "default"} size="lg" className="w-full">
        <Link href="/login/email">
          <Mail /> Sign in with email
        </Link>
      </Button>
    </AuthScreen>
  );
}
