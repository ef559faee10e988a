"use client";
import { useRouter } from "next/navigation";
import type { FieldValues, UseFormReturn } from "react-hook-form";
import { toast } from "sonner";
import { FormAlert } from "./field";
import { SubmitButton } from "./submit-button";

/**
 * The frame of a form sent to a server action (see useActionForm): its fields, then the server's refusal,
 * then the submit button, which shows `busyLabel` while the action runs.
 */
export function ActionForm<TValues extends FieldValues>({
  state: { form, failure, onSubmit },
  label,
  submitLabel,
  busyLabel,
  children,
}: {
  state: { form: UseFormReturn<TValues>; failure: string | null; onSubmit: React.FormEventHandler<HTMLFormElement> };
  label: string;
  submitLabel: string;
  busyLabel: string;
  children: React.ReactNode;
}) {
  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4" aria-label={label}>
      {children}
      <FormAlert message={failure} />
      <SubmitButton busy={form.formState.isSubmitting} busyLabel={busyLabel}>
        {submitLabel}
      </SubmitButton>
    </form>
  );
}

/** An onSuccess that says so ("Success" and `description`) and then shows `path` in place of this page. */
export function useSuccessThenGo(description: string, path: string): () => void {
  const router = useRouter();
  return () => {
    toast.success("Success", { description });
    router.replace(path);
  };
}
