"use client";
import { useEffect, useState } from "react";
import { Loader2 } from "lucide-react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { startOAuthSignIn } from "@/lib/actions/start-oauth-sign-in";
import { GitHubMark, GoogleMark } from "./provider-icons";

const names = { github: "GitHub", google: "Google" } as const;

/** Starts the provider's sign-in; busy (and disabled) from the click until the browser has left. */
export function OAuthSignInButton({
  provider,
  label,
  variant = "default",
  purpose = "sign-in",
}: {
  provider: keyof typeof names;
  label: string;
  variant?: "default" | "outline";
  /** "claim": the claim page's GitHub sign-in, which also asks to read organisation ownership. */
  purpose?: "sign-in" | "claim";
}) {
  const [busy, setBusy] = useState(false);

  // Coming back with the Back button restores this page from the cache, still busy: reset it.
  useEffect(() => {
    const onShow = (event: PageTransitionEvent) => event.persisted && setBusy(false);
    window.addEventListener("pageshow", onShow);
    return () => window.removeEventListener("pageshow", onShow);
  }, []);

  async function start() {
    setBusy(true);
    try {
      const result = await startOAuthSignIn(provider, purpose);
      if (!result.ok) throw new Error(result.message);
      window.location.assign(result.data.url);
    } catch {
      setBusy(false);
      toast.error("Error", { description: `Failed to initiate ${names[provider]} login. Please try again.` });
    }
  }

  const Mark = provider === "github" ? GitHubMark : GoogleMark;
  return (
    <Button
      type="button"
      size="lg"
      variant={variant}
      className="w-full"
      onClick={start}
      disabled={busy}
      aria-busy={busy}
    >
      {busy ? <Loader2 className="animate-spin" /> : <Mark className="size-4" />}
      {label}
    </Button>
  );
}
