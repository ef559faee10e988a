"use client";
import { useEffect, useRef } from "react";
import { signOutCurrentSession } from "@/lib/actions/sign-out";

/** Ends the session server-side, forgets everything the browser cached, and goes home with a fresh page. */
export function SignOutOnOpen() {
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void signOutCurrentSession()
      .catch(() => null)
      .finally(() => {
        try {
          window.localStorage.clear();
          window.sessionStorage.clear();
        } catch {
          // Storage can be unavailable (private modes); there is nothing to clear then.
        }
        // A full load (not a client navigation) also drops the router's cache of signed-in pages.
        window.location.replace("/");
      });
  }, []);
  return null;
}
