"use client";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Textarea } from "@/components/ui/textarea";
import { answerBuyerReview } from "@/lib/actions/answer-buyer-review";
import { hideBuyerReview } from "@/lib/actions/hide-buyer-review";

type Result = { ok: true; data: unknown } | { ok: false; status: number; message: string };

/** Hide (admins, with a reason) or answer (the listing's owner, once) one buyer review. */
export function BuyerReviewActions({ reviewId, mode }: { reviewId: string; mode: "admin" | "owner" }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [text, setText] = useState("");
  const hide = mode === "admin";
  const label = hide
    ? "Reason for hiding (kept in the moderation history)"
    : "Your answer (shown under the review, once)";

  function submit(run: () => Promise<Result>, done: string) {
    start(async () => {
      const result = await run();
      if (result.ok) {
        toast.success(done);
        setText("");
        router.refresh();
      } else {
        toast.error("Not saved", { description: result.message });
        if (result.status === 409) router.refresh();
      }
    });
  }

  return (
    <form
      className="mt-3 space-y-2"
      onSubmit={(e) => {
        e.preventDefault();
        if (hide) submit(() => hideBuyerReview({ reviewId, reason: text }), "Review hidden");
        else submit(() => answerBuyerReview({ reviewId, text }), "Answer posted");
      }}
    >
      <label htmlFor={`desk-${reviewId}`} className="text-xs font-medium">
        {label}
      </label>
      <Textarea
        id={`desk-${reviewId}`}
        value={text}
        onChange={(e) => setText(e.target.value)}
        maxLength={hide ? 500 : 1000}
        rows={2}
      />
      <Button
        type="submit"
        size="sm"
        variant={hide ? "destructive" : "default"}
        disabled={pending || text.trim().length === 0}
      >
        {hide ? "Hide review" : "Post answer"}
      </Button>
    </form>
  );
}
