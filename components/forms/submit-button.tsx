import { Loader2 } from "lucide-react";
import { Button } from "@/components/ui/button";

/** A full-width submit button that shows a spinner and `busyLabel` while the form is being sent (and is off while `disabled`). */
export function SubmitButton({
  busy,
  busyLabel,
  disabled,
  children,
}: {
  busy: boolean;
  busyLabel: string;
  disabled?: boolean;
  children: React.ReactNode;
}) {
  return (
    <Button type="submit" size="lg" className="w-full" disabled={busy || disabled}>
      {busy && <Loader2 className="animate-spin" />}
      {busy ? busyLabel : children}
    </Button>
  );
}
