"use client";
import { useState } from "react";
import { Loader2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { resendEmailVerification } from "@/lib/actions/verify-email";
import { confirmationHint, newLinkButton, type LinkDelivery } from "@/lib/auth/link-words";

/** Shown beside an unconfirmed address: what it means, how to confirm it, and a fresh link where one can reach the person. */
export function EmailVerificationNotice({ delivery }: { delivery: LinkDelivery }) {
  const button = newLinkButton(delivery);
  const [state, setState] = useState<{ busy: boolean; message?: string; failed?: boolean }>({ busy: false });
  return (
    <div className="mt-3 grid gap-2 rounded-md border border-amber-500/40 bg-amber-500/5 px-3 py-2 text-sm">
      <p>
        <span className="font-medium">Email not confirmed.</span> {confirmationHint(delivery)}; until then your address
        does not count for your account.
      </p>
      {button && (
        <div className="flex flex-wrap items-center gap-3">
          <Button
            type="button"
            size="sm"
            variant="outline"
            disabled={state.busy}
            onClick={async () => {
              setState({ busy: true });
              const result = await resendEmailVerification().catch(() => null);
              setState(
                result?.ok
                  ? { busy: false, message: button.done }
                  : {
                      busy: false,
                      failed: true,
                      message: result?.message ?? "Something went wrong on our side. Please try again.",
                    },
              );
            }}
          >
            {state.busy && <Loader2 className="animate-spin" />}
            {state.busy ? button.busy : button.label}
          </Button>
          {state.message && (
            <span
              role={state.failed ? "alert" : "status"}
              className={state.failed ? "text-destructive" : "text-muted-foreground"}
            >
              {state.message}
            </span>
          )}
        </div>
      )}
    </div>
  );
}
