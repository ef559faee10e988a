"use client";
import { useState } from "react";
import { Loader2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { resendEmailVerification } from "@/lib/actions/verify-email";

/** Shown beside an unconfirmed address: what it means, and a way to get a fresh link. */
const HOW_TO_CONFIRM = {
  mail: "Use the link we mailed you",
  log: "This server sends no mail (SMTP_URL is not set): use the link it wrote to its terminal",
  nowhere: "This site cannot send mail yet, so no link was sent: ask its operator",
} as const;

export function EmailVerificationNotice({ delivery }: { delivery: keyof typeof HOW_TO_CONFIRM }) {
  const [state, setState] = useState<{ busy: boolean; message?: string; failed?: boolean }>({ busy: false });
  return (
    <div className="mt-3 grid gap-2 rounded-md border border-amber-500/40 bg-amber-500/5 px-3 py-2 text-sm">
      <p>
        <span className="font-medium">Email not confirmed.</span> {HOW_TO_CONFIRM[delivery]}; until then your address does not count for your account.
      </p>
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
                ? { busy: false, message: delivery === "mail" ? "We sent a new link. It works once, for 24 hours." : "A new link is ready. It works once, for 24 hours." }
                : { busy: false, failed: true, message: result?.message ?? "Something went wrong on our side. Please try again." },
            );
          }}
        >
          {state.busy && <Loader2 className="animate-spin" />}
          {state.busy ? "Sending..." : "Send the link again"}
        </Button>
        {state.message && (
          <span role={state.failed ? "alert" : "status"} className={state.failed ? "text-destructive" : "text-muted-foreground"}>
            {state.message}
          </span>
        )}
      </div>
    </div>
  );
}
