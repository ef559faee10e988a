"use client";
import { useEffect } from "react";
import { zodResolver } from "@hookform/resolvers/zod";
import { NewPasswordField } from "@/components/auth/auth-fields";
import { ActionForm, useSuccessThenGo } from "@/components/forms/action-form";
import { useActionForm } from "@/components/forms/use-action-form";
import { resetPasswordWithLink } from "@/lib/actions/reset-password";
import { resetPasswordSchema, type ResetPasswordInput } from "@/lib/validations/auth";

export function ResetPasswordForm({ token }: { token: string }) {
  const onSuccess = useSuccessThenGo("Your password has been reset. Sign in with your new password.", "/login/email");
  const defaultValues = { token, password: "" };
  const state = useActionForm<ResetPasswordInput, null>({
    resolver: zodResolver(resetPasswordSchema),
    defaultValues,
    action: resetPasswordWithLink,
    onSuccess,
  });

  // The secret link should not linger in the address bar or the history once the page has it.
  useEffect(() => window.history.replaceState(null, "", window.location.pathname), []);

  const { errors } = state.form.formState;
  return (
    <ActionForm state={state} label="Choose a new password" submitLabel="Set new password" busyLabel="Saving...">
      <input type="hidden" {...state.form.register("token")} />
      <NewPasswordField
        id="reset-password"
        label="New password"
        error={errors.password?.message ?? errors.token?.message}
        registration={state.form.register("password")}
      />
    </ActionForm>
  );
}
