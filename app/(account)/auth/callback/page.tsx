import type { Metadata } from "next";
import { Loader2 } from "lucide-react";
import { CallbackHandler } from "@/components/auth/callback-handler";
import { currentUserId } from "@/lib/auth/current-user";
import { callbackOutcome } from "@/lib/auth/callback-outcome";

export const metadata: Metadata = { title: "Authenticating", robots: { index: false } };

// Auth.js finishes every sign-in here: on success with a session, on failure with ?error=…
export default async function CallbackPage({
  searchParams,
}: {
  searchParams: Promise<{ error?: string | string[]; code?: string | string[] }>;
}) {
  const { error, code } = await searchParams;
  const outcome = callbackOutcome({
    error: typeof error === "string" ? error : null,
    code: typeof code === "string" ? code : null,
    signedIn: Boolean(await currentUserId()),
  });
  return (
    <div className="flex flex-col items-center gap-3 px-4 py-24 text-muted-foreground" role="status">
      <Loader2 className="size-8 animate-spin text-primary" aria-hidden="true" />
      <p>Authenticating...</p>
      <CallbackHandler outcome={outcome} />
    </div>
  );
}
