"use client";
import { useEffect, useRef } from "react";
import { useRouter } from "next/navigation";
import { toast } from "sonner";
import type { CallbackOutcome } from "@/lib/auth/callback-outcome";

/** Shows the sign-in outcome as a toast, then leaves for /submit or /login. */
export function CallbackHandler({ outcome }: { outcome: CallbackOutcome }) {
  const router = useRouter();
  const done = useRef(false);
  useEffect(() => {
    if (done.current) return;
    done.current = true;
    const { kind, title, description } = outcome.toast;
    toast[kind](title, { description });
    router.replace(outcome.redirectTo);
  }, [outcome, router]);
  return null;
}
