import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { headers } from "next/headers";
import { connection } from "next/server";
import { AuthScreen } from "@/components/auth/auth-screen";
import { RegisterForm } from "@/components/auth/register-form";
import { oauthProviders } from "@/lib/auth/authjs";
import { currentUserId } from "@/lib/auth/current-user";
import { registerAlternative } from "@/lib/auth/sign-in-words";
import { linkDelivery } from "@/lib/mail";
import { site } from "@/lib/site";

export const metadata: Metadata = { title: "Create an account", robots: { index: false } };

export default async function RegisterPage() {
  // Which providers are offered is deployment configuration, read per request; a person already signed in has an
  // account, and is shown it rather than a form for another.
  await connection();
  // Not while the page is re-rendered as the answer to its own "Create account" action (which has just signed the
  // person in): that answer would carry this redirect, racing the form's own way on to /submit.
  if (!(await headers()).has("next-action") && (await currentUserId())) redirect("/account");
  const alternative = registerAlternative(oauthProviders());
  return (
    <AuthScreen
      title="Create your account"
      description={`Sign up with your email to list MonetizedMCP servers on ${site.name}.`}
      footer={
        <p>
          Already have an account?{" "}
          <Link href="/login/email" className="font-medium text-primary underline-offset-4 hover:underline">
            Sign in
          </Link>
          {alternative && (
            <>
              {" "}
              ·{" "}
              <Link href={alternative.href} className="font-medium text-primary underline-offset-4 hover:underline">
                {alternative.label}
              </Link>
            </>
          )}
        </p>
      }
    >
      <RegisterForm mailed={linkDelivery() === "mail"} />
    </AuthScreen>
  );
}
