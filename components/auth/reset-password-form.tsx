"use client";
import { useEffect, useState } from "react";
import { useRouter } from "next/navigation";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { Loader2 } from "lucide-react";
import { toast } from "sonner";
import { Field, FormAlert } from "@/components/forms/field";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { resetPasswordWithLink } from "@/lib/actions/reset-password";
import { MIN_PASSWORD_LENGTH, resetPasswordSchema, type ResetPasswordInput } from "@/lib/validations/auth";

export function ResetPasswordForm({ token }: { token: string }) {
  const router = useRouter();
  const [failure, setFailure] = useState<string | null>(null);
  const { register, handleSubmit, formState } = useForm<ResetPasswordInput>({ resolver: zodResolver(resetPasswordSchema), defaultValues: { token, password: "" } });

  // The secret link should not linger in the address bar or the history once the page has it.
  useEffect(() => window.history.replaceState(null, "", window.location.pathname), []);

  async function onSubmit(values: ResetPasswordInput) {
    setFailure(null);
    const result = await resetPasswordWithLink(values).catch(() => null);
    if (!result?.ok) return setFailure(result?.message ?? "Could not reach the server. Please try again.");
    toast.success("Success", { description: "Your password has been reset. Sign in with your new password." });
    router.replace("/login/email");
  }

  const { errors, isSubmitting } = formState;
  return (
    <form onSubmit={handleSubmit(onSubmit)} noValidate className="grid gap-4" aria-label="Choose a new password">
      <input type="hidden" {...register("token")} />
      <Field
        id="reset-password"
        label="New password"
        hint={`At least ${MIN_PASSWORD_LENGTH} characters. Common passwords are refused.`}
        error={errors.password?.message ?? errors.token?.message}
      >
        <Input type="password" autoComplete="new-password" {...register("password")} />
      </Field>
      <FormAlert message={failure} />
      <Button type="submit" size="lg" className="w-full" disabled={isSubmitting}>
        {isSubmitting && <Loader2 className="animate-spin" />}
        {isSubmitting ? "Saving..." : "Set new password"}
      </Button>
    </form>
  );
}
