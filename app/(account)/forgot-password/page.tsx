import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { AuthScreen } from "@/components/auth/auth-screen";
import { ForgotPasswordForm } from "@/components/auth/forgot-password-form";
import { forgotPasswordDescription } from "@/lib/auth/link-words";
import { linkDelivery } from "@/lib/mail";

export const metadata: Metadata = { title: "Forgot password", robots: { index: false } };

export default async function ForgotPasswordPage() {
  // Where the link goes (mail, the server's terminal, nowhere) is deployment configuration, read per request.
  await connection();
  const delivery = linkDelivery();
  return (
    <AuthScreen
      title="Forgot your password?"
      description={forgotPasswordDescription(delivery)}
      footer={
        <p>
          Remembered it?{" "}
          <Link href="/login/email" className="font-medium text-primary underline-offset-4 hover:underline">
            Back to sign in
          </Link>
        </p>
      }
    >
      {delivery === "nowhere" ? null : <ForgotPasswordForm mailed={delivery === "mail"} />}
    </AuthScreen>
  );
}
