import Link from "next/link";
import { CircleCheck } from "lucide-react";

/** Stays on the page after a submission (the toast goes after seconds): what happens next, and where to follow it. */
export function SubmittedNotice({ name }: { name: string }) {
  return (
    <div
      role="status"
      data-testid="submitted-notice"
      className="flex gap-3 rounded-lg border border-emerald-200 bg-emerald-50/70 px-4 py-3 text-sm"
    >
      <CircleCheck className="mt-0.5 size-4 shrink-0 text-emerald-700" aria-hidden="true" />
      <div className="grid min-w-0 gap-1">
        <p className="font-semibold text-foreground wrap-anywhere">{name} is submitted and waiting for review.</p>
        <p className="text-muted-foreground">
          An automatic check reads its tools and prices now; a reviewer then approves it, and it appears in the
          marketplace and the registry. Follow its status on{" "}
          <Link href="/account" className="font-medium text-primary underline-offset-4 hover:underline">
            your account page
          </Link>
          . The form below is ready for another server.
        </p>
      </div>
    </div>
  );
}
