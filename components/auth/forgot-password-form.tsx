"use client";
import { useState } from "react";
import { zodResolver } from "@hookform/resolvers/zod";
import { MailCheck } from "lucide-react";
import { Field, FormAlert } from "@/components/forms/field";
import { SubmitButton } from "@/components/forms/submit-button";
import { useActionForm } from "@/components/forms/use-action-form";
import { Input } from "@/components/ui/input";
import { requestPasswordResetLink } from "@/lib/actions/request-password-reset";
import { forgotPasswordSchema, type ForgotPasswordInput } from "@/lib/validations/auth";

export function ForgotPasswordForm() {
  const [sent, setSent] = useState<string | null>(null);
  const { form, failure, onSubmit } = useActionForm<ForgotPasswordInput, { message: string }>({
    resolver: zodResolver(forgotPasswordSchema),
    defaultValues: { email: "" },
    action: requestPasswordResetLink,
    onSuccess: ({ message }) => setSent(message),
  });

  if (sent) {
    return (
      <div role="status" className="flex gap-3 rounded-md border border-emerald-200 bg-emerald-50 p-4 text-sm text-emerald-900">
        <MailCheck className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
        <p>{sent} The link works once, for 30 minutes. Check your spam folder if it does not arrive.</p>
      </div>
    );
  }

  const { errors, isSubmitting } = form.formState;
  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4" aria-label="Reset your password">
      <Field id="forgot-email" label="Email" error={errors.email?.message}>
        <Input type="email" autoComplete="email" {...form.register("email")} />
      </Field>
      <FormAlert message={failure} />
      <SubmitButton busy={isSubmitting} busyLabel="Sending...">
        Send reset link
      </SubmitButton>
    </form>
  );
}
