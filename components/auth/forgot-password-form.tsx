"use client";
import { useState } from "react";
import { zodResolver } from "@hookform/resolvers/zod";
import { MailCheck } from "lucide-react";
import { EmailField } from "@/components/auth/auth-fields";
import { ActionForm } from "@/components/forms/action-form";
import { useActionForm } from "@/components/forms/use-action-form";
import { requestPasswordResetLink } from "@/lib/actions/request-password-reset";
import { forgotPasswordSchema, type ForgotPasswordInput } from "@/lib/validations/auth";

/** `mailed`: the link goes out by mail (SMTP configured), so the answer may point at the spam folder. */
export function ForgotPasswordForm({ mailed }: { mailed: boolean }) {
  const [sent, setSent] = useState<string | null>(null);
  const onSuccess = ({ message }: { message: string }) => setSent(message);
  const defaultValues = { email: "" };
  const state = useActionForm<ForgotPasswordInput, { message: string }>({
    resolver: zodResolver(forgotPasswordSchema),
    defaultValues,
    action: requestPasswordResetLink,
    onSuccess,
  });

  if (sent) {
    return (
      <div
        role="status"
        className="flex gap-3 rounded-md border border-emerald-200 bg-emerald-50 p-4 text-sm text-emerald-900"
      >
        <MailCheck className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
        <p>
          {sent} The link works once, for 30 minutes.{mailed ? " Check your spam folder if it does not arrive." : ""}
        </p>
      </div>
    );
  }

  const { errors } = state.form.formState;
  return (
    <ActionForm state={state} label="Reset your password" submitLabel="Send reset link" busyLabel="Sending...">
      <EmailField id="forgot-email" error={errors.email?.message} registration={state.form.register("email")} />
    </ActionForm>
  );
}
