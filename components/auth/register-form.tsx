"use client";
import { zodResolver } from "@hookform/resolvers/zod";
import { ActionForm, useSuccessThenGo } from "@/components/forms/action-form";
import { Field } from "@/components/forms/field";
import { useActionForm } from "@/components/forms/use-action-form";
import { Input } from "@/components/ui/input";
import { registerWithEmail } from "@/lib/actions/register-account";
import { MIN_PASSWORD_LENGTH, registerSchema, type RegisterInput } from "@/lib/validations/auth";

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
      <Field id="register-email" label="Email" error={errors.email?.message}>
        <Input type="email" autoComplete="email" {...state.form.register("email")} />
      </Field>
      <Field
        id="register-password"
        label="Password"
        hint={`At least ${MIN_PASSWORD_LENGTH} characters. Common passwords are refused.`}
        error={errors.password?.message}
      >
        <Input type="password" autoComplete="new-password" {...state.form.register("password")} />
      </Field>
    </ActionForm>
  );
}
