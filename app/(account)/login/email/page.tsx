import type { Metadata } from "next";
import Link from "next/link";
import { AuthScreen } from "@/components/auth/auth-screen";
import { EmailSignInForm } from "@/components/auth/email-sign-in-form";
import { site } from "@/lib/site";

export const metadata: Metadata = { title: "Sign in with email", robots: { index: false } };

export default function EmailSignInPage() {
  return (
    <AuthScreen
      title="Sign in with email"
      description={`Use the email and password of your ${site.name} account.`}
      footer={
        <>
          <p>
            <Link href="/forgot-password" className="font-medium text-primary underline-offset-4 hover:underline">
              Forgot your password?
            </Link>
          </p>
          <p>
            No account yet?{" "}
            <Link href="/register" className="font-medium text-primary underline-offset-4 hover:underline">
              Create one
            </Link>{" "}
            ·{" "}
            <Link href="/login" className="font-medium text-primary underline-offset-4 hover:underline">
              Other sign-in options
            </Link>
          </p>
        </>
      }
    >
      <EmailSignInForm />
    </AuthScreen>
  );
}
