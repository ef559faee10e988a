"use client";
import { useEffect } from "react";
import { useRouter } from "next/navigation";
import { zodResolver } from "@hookform/resolvers/zod";
import { toast } from "sonner";
import { Field, FormAlert } from "@/components/forms/field";
import { SubmitButton } from "@/components/forms/submit-button";
import { useActionForm } from "@/components/forms/use-action-form";
import { Input } from "@/components/ui/input";
import { resetPasswordWithLink } from "@/lib/actions/reset-password";
import { MIN_PASSWORD_LENGTH, resetPasswordSchema, type ResetPasswordInput } from "@/lib/validations/auth";

export function ResetPasswordForm({ token }: { token: string }) {
  const router = useRouter();
  const { form, failure, onSubmit } = useActionForm<ResetPasswordInput, null>({
    resolver: zodResolver(resetPasswordSchema),
    defaultValues: { token, password: "" },
    action: resetPasswordWithLink,
    onSuccess: () => {
      toast.success("Success", { description: "Your password has been reset. Sign in with your new password." });
      router.replace("/login/email");
    },
  });

  // The secret link should not linger in the address bar or the history once the page has it.
  useEffect(() => window.history.replaceState(null, "", window.location.pathname), []);

  const { errors, isSubmitting } = form.formState;
  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4" aria-label="Choose a new password">
      <input type="hidden" {...form.register("token")} />
      <Field
        id="reset-password"
        label="New password"
        hint={`At least ${MIN_PASSWORD_LENGTH} characters. Common passwords are refused.`}
        error={errors.password?.message ?? errors.token?.message}
      >
        <Input type="password" autoComplete="new-password" {...form.register("password")} />
      </Field>
      <FormAlert message={failure} />
      <SubmitButton busy={isSubmitting} busyLabel="Saving...">
        Set new password
      </SubmitButton>
    </form>
  );
}
