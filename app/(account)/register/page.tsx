import type { Metadata } from "next";
import Link from "next/link";
import { AuthScreen } from "@/components/auth/auth-screen";
import { RegisterForm } from "@/components/auth/register-form";
import { site } from "@/lib/site";

export const metadata: Metadata = { title: "Create an account", robots: { index: false } };

export default function RegisterPage() {
  return (
    <AuthScreen
      title="Create your account"
      description={`Sign up with your email to list MonetizedMCP servers on ${site.name}.`}
      footer={
        <p>
          Already have an account?{" "}
          <Link href="/login/email" className="font-medium text-primary underline-offset-4 hover:underline">
            Sign in
          </Link>{" "}
          ·{" "}
          <Link href="/login" className="font-medium text-primary underline-offset-4 hover:underline">
            Use GitHub
          </Link>
        </p>
      }
    >
      <RegisterForm />
    </AuthScreen>
  );
}
