"use client";
import { useEffect, useState } from "react";
import { useHydrated } from "@/components/hooks/use-hydrated";
import { toast } from "sonner";
import { FormAlert } from "@/components/forms/field";
import { SubmitButton } from "@/components/forms/submit-button";
import { GoToAccountButton } from "@/components/auth/go-to-account-button";
import { confirmEmailWithLink } from "@/lib/actions/verify-email";

/**
 * Confirms on a press, not on open: mail scanners fetch links, and a page that changed state on a GET
 * would also be a cross-site request away from doing so.
 */
export function VerifyEmailForm({ token }: { token: string }) {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | undefined>();
  const [done, setDone] = useState(false);
  // The form works through script, so its button stays disabled until the page is interactive.
  const ready = useHydrated();

  // The secret link should not linger in the address bar or the history once the page has it.
  useEffect(() => {
    window.history.replaceState(null, "", window.location.pathname);
  }, []);

  if (done) {
    return (
      <>
        <p role="status" className="text-center text-sm">
          Your email address is confirmed.
        </p>
        <GoToAccountButton />
      </>
    );
  }
  return (
    <form
      aria-label="Confirm your email address"
      className="grid gap-4"
      onSubmit={async (event) => {
        event.preventDefault();
        setBusy(true);
        setFailure(undefined);
        const result = await confirmEmailWithLink({ token }).catch(() => null);
        setBusy(false);
        if (result?.ok) {
          setDone(true);
          toast.success("Success", { description: "Your email address is confirmed." });
        } else {
          setFailure(result?.message ?? "Something went wrong on our side. Please try again.");
        }
      }}
    >
      <FormAlert message={failure} />
      <SubmitButton busy={busy} busyLabel="Confirming..." disabled={!ready}>
        Confirm email address
      </SubmitButton>
    </form>
  );
}
