import type { Metadata } from "next";
import Link from "next/link";
import { AuthScreen } from "@/components/auth/auth-screen";
import { ResetPasswordForm } from "@/components/auth/reset-password-form";
import { Button } from "@/components/ui/button";
import { linkToken, type LinkTokenParams } from "@/lib/auth/link-token";

export const metadata: Metadata = { title: "Choose a new password", robots: { index: false }, referrer: "no-referrer" };

// Where the emailed link lands: /reset-password?token=…
export default async function ResetPasswordPage({ searchParams }: { searchParams: LinkTokenParams }) {
  const value = await linkToken(searchParams);
  return (
    <AuthScreen
      title="Choose a new password"
      description="Setting it signs you out everywhere and revokes your API tokens."
    >
      {value ? (
        <ResetPasswordForm token={value} />
      ) : (
        <>
          <p role="alert" className="text-center text-sm text-destructive">
            This reset link is invalid or has expired. Ask for a new one.
          </p>
          <Button asChild variant="outline" size="lg" className="w-full">
            <Link href="/forgot-password">Send a new link</Link>
          </Button>
        </>
      )}
    </AuthScreen>
  );
}
