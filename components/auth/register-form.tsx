"use client";
import { zodResolver } from "@hookform/resolvers/zod";
import { EmailField, NewPasswordField } from "@/components/auth/auth-fields";
import { ActionForm, useSuccessThenGo } from "@/components/forms/action-form";
import { Field } from "@/components/forms/field";
import { useActionForm } from "@/components/forms/use-action-form";
import { Input } from "@/components/ui/input";
import { registerWithEmail } from "@/lib/actions/register-account";
import { registerSchema, type RegisterInput } from "@/lib/validations/auth";

export function RegisterForm() {
  const onSuccess = useSuccessThenGo("Your account has been created and you are signed in. Check your inbox to confirm your email address.", "/submit");
  const defaultValues = { name: "", email: "", password: "" };
  const state = useActionForm<RegisterInput, null>({ resolver: zodResolver(registerSchema), defaultValues, action: registerWithEmail, onSuccess });
  const { errors } = state.form.formState;
  return (
    <ActionForm state={state} label="Create an account" submitLabel="Create account" busyLabel="Creating account...">
      <Field id="register-name" label="Name" error={errors.name?.message}>
        <Input autoComplete="name" {...state.form.register("name")} />
      </Field>
      <EmailField id="register-email" error={errors.email?.message} registration={state.form.register("email")} />
      <NewPasswordField id="register-password" label="Password" error={errors.password?.message} registration={state.form.register("password")} />
    </ActionForm>
  );
}
