"use client";
import { useEffect, useRef, useState } from "react";
import { useHydrated } from "@/components/hooks/use-hydrated";
import Link from "next/link";
import { Loader2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { signOutCurrentSession } from "@/lib/actions/sign-out";

/** Ends the session server-side, forgets everything the browser cached, and goes home with a fresh page. */
async function signOutAndLeave() {
  await signOutCurrentSession().catch(() => null);
  try {
    window.localStorage.clear();
    window.sessionStorage.clear();
  } catch {
    // Storage can be unavailable (private modes); there is nothing to clear then.
  }
  // A full load (not a client navigation) also drops the router's cache of signed-in pages.
  window.location.replace("/");
}

function SigningOut() {
  return (
    <div className="flex flex-col items-center gap-3 px-4 py-24 text-muted-foreground" role="status">
      <Loader2 className="size-8 animate-spin text-primary" aria-hidden="true" />
      <p>Signing out...</p>
    </div>
  );
}

/**
 * The spec's /logout: opened from this site (its own Sign out link, or typed in the address bar) it signs out
 * at once. Opened from another site (`confirm`), it asks first, so a link elsewhere cannot sign anyone out.
 */
export function SignOutOnOpen({ confirm }: { confirm: boolean }) {
  const started = useRef(false);
  const [confirmed, setConfirmed] = useState(!confirm);
  // The button works through script, so it stays disabled until the page is interactive.
  const ready = useHydrated();
  useEffect(() => {
    if (!confirmed || started.current) return;
    started.current = true;
    void signOutAndLeave();
  }, [confirmed]);

  if (confirmed) return <SigningOut />;
  return (
    <div className="mx-auto flex max-w-sm flex-col items-center gap-4 px-4 py-24 text-center">
      <h1 className="text-2xl font-semibold tracking-tight">Sign out?</h1>
      <p className="text-muted-foreground">
        A link from another site opened this page. Sign out of Agora on this device?
      </p>
      <div className="flex w-full flex-col gap-2 sm:flex-row sm:justify-center">
        <Button size="lg" disabled={!ready} onClick={() => setConfirmed(true)}>
          Sign out
        </Button>
        <Button asChild size="lg" variant="outline">
          <Link href="/">Stay signed in</Link>
        </Button>
      </div>
    </div>
  );
}
