"use client";
import { zodResolver } from "@hookform/resolvers/zod";
import { EmailField } from "@/components/auth/auth-fields";
import { ActionForm, useSuccessThenGo } from "@/components/forms/action-form";
import { Field } from "@/components/forms/field";
import { useActionForm } from "@/components/forms/use-action-form";
import { Input } from "@/components/ui/input";
import { signInWithEmail } from "@/lib/actions/sign-in-with-email";
import { signInSchema, type SignInInput } from "@/lib/validations/auth";

export function EmailSignInForm() {
  const onSuccess = useSuccessThenGo("You have been logged in successfully.", "/submit");
  const defaultValues = { email: "", password: "" };
  const state = useActionForm<SignInInput, null>({
    resolver: zodResolver(signInSchema),
    defaultValues,
    action: signInWithEmail,
    onSuccess,
  });
  const { errors } = state.form.formState;
  return (
    <ActionForm state={state} label="Sign in with email" submitLabel="Sign in" busyLabel="Signing in...">
      <EmailField id="signin-email" error={errors.email?.message} registration={state.form.register("email")} />
      <Field id="signin-password" label="Password" error={errors.password?.message}>
        <Input type="password" autoComplete="current-password" {...state.form.register("password")} />
      </Field>
    </ActionForm>
  );
}
