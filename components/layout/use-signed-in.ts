"use client";
import { useEffect, useState } from "react";

/**
 * Whether this browser has a live session, asked of the server (the session cookie is httpOnly and can be
 * ended server-side at any time). Re-asked on every navigation, so sign-in and sign-out show at once; null until known.
 */
export function useSignedIn(pathname: string): boolean | null {
  // null until the server has answered: neither "Account" nor "Sign in" is shown on a guess.
  const [signedIn, setSignedIn] = useState<boolean | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    fetch("/api/nextauth/session", { signal: controller.signal, cache: "no-store" })
      .then((res) => (res.ok ? res.json() : null))
      .then((session: { user?: { id?: string } } | null) => setSignedIn(Boolean(session?.user?.id)))
      .catch(() => {});
    return () => controller.abort();
  }, [pathname]);
  return signedIn;
}
