import type { Metadata } from "next";
import { Loader2 } from "lucide-react";
import { SignOutOnOpen } from "@/components/auth/sign-out-on-open";

export const metadata: Metadata = { title: "Signing out", robots: { index: false } };

export default function LogoutPage() {
  return (
    <div className="flex flex-col items-center gap-3 px-4 py-24 text-muted-foreground" role="status">
      <Loader2 className="size-8 animate-spin text-primary" aria-hidden="true" />
      <p>Signing out...</p>
      <SignOutOnOpen />
    </div>
  );
}
