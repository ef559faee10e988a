import type { Metadata } from "next";
import { AuthScreen } from "@/components/auth/auth-screen";
import { GoToAccountButton } from "@/components/auth/go-to-account-button";
import { VerifyEmailForm } from "@/components/auth/verify-email-form";
import { linkToken, type LinkTokenParams } from "@/lib/auth/link-token";

export const metadata: Metadata = {
  title: "Confirm your email address",
  robots: { index: false },
  referrer: "no-referrer",
};

// Where the mailed link lands: /verify-email?token=…
export default async function VerifyEmailPage({ searchParams }: { searchParams: LinkTokenParams }) {
  const value = await linkToken(searchParams);
  return (
    <AuthScreen
      title="Confirm your email address"
      description="Until it is confirmed, your address does not count for your account."
    >
      {value ? (
        <VerifyEmailForm token={value} />
      ) : (
        <>
          <p role="alert" className="text-center text-sm text-destructive">
            This verification link is invalid or has expired. Ask for a new one from your account page.
          </p>
          <GoToAccountButton />
        </>
      )}
    </AuthScreen>
  );
}
