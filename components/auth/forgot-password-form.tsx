"use client";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { Loader2, MailCheck } from "lucide-react";
import { Field, FormAlert } from "@/components/forms/field";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { requestPasswordResetLink } from "@/lib/actions/request-password-reset";
import { forgotPasswordSchema, type ForgotPasswordInput } from "@/lib/validations/auth";

export function ForgotPasswordForm() {
  const [sent, setSent] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const { register, handleSubmit, formState } = useForm<ForgotPasswordInput>({ resolver: zodResolver(forgotPasswordSchema), defaultValues: { email: "" } });

  async function onSubmit(values: ForgotPasswordInput) {
    setFailure(null);
    const result = await requestPasswordResetLink(values).catch(() => null);
    if (!result?.ok) return setFailure(result?.message ?? "Could not reach the server. Please try again.");
    setSent(result.data.message);
  }

  if (sent) {
    return (
      <div role="status" className="flex gap-3 rounded-md border border-emerald-200 bg-emerald-50 p-4 text-sm text-emerald-900">
        <MailCheck className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
        <p>
          {sent} The link works once, for 30 minutes. Check your spam folder if it does not arrive.
        </p>
      </div>
    );
  }

  const { errors, isSubmitting } = formState;
  return (
    <form onSubmit={handleSubmit(onSubmit)} noValidate className="grid gap-4" aria-label="Reset your password">
      <Field id="forgot-email" label="Email" error={errors.email?.message}>
        <Input type="email" autoComplete="email" {...register("email")} />
      </Field>
      <FormAlert message={failure} />
      <Button type="submit" size="lg" className="w-full" disabled={isSubmitting}>
        {isSubmitting && <Loader2 className="animate-spin" />}
        {isSubmitting ? "Sending..." : "Send reset link"}
      </Button>
    </form>
  );
}
