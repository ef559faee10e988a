"use client";
import { useState } from "react";
import { zodResolver } from "@hookform/resolvers/zod";
import { EmailField, NewPasswordField } from "@/components/auth/auth-fields";
import { ActionForm, useSuccessThenGo } from "@/components/forms/action-form";
import { Field } from "@/components/forms/field";
import { useActionForm } from "@/components/forms/use-action-form";
import { Input } from "@/components/ui/input";
import { registerWithEmail } from "@/lib/actions/register-account";
import { registerSchema, type RegisterInput } from "@/lib/validations/auth";

/** `mailed`: this site mails the confirmation link (SMTP configured), so the person is told to look for it. */
export function RegisterForm({ mailed }: { mailed: boolean }) {
  const go = useSuccessThenGo(
    `Your account has been created and you are signed in.${mailed ? " Check your inbox to confirm your email address." : ""}`,
    "/submit",
  );
  // Once created, the filled form gives way at once (the next page may take a moment to arrive on a busy server).
  const [created, setCreated] = useState(false);
  const onSuccess = () => {
    setCreated(true);
    go();
  };
  const defaultValues = { name: "", email: "", password: "" };
  const state = useActionForm<RegisterInput, null>({
    resolver: zodResolver(registerSchema),
    defaultValues,
    action: registerWithEmail,
    onSuccess,
  });
  const { errors } = state.form.formState;
  if (created) {
    return (
      <p role="status" className="rounded-md border bg-muted/40 px-3 py-4 text-center text-sm">
        Account created. Opening Submit Server…
      </p>
    );
  }
  return (
    <ActionForm state={state} label="Create an account" submitLabel="Create account" busyLabel="Creating account...">
      <Field id="register-name" label="Name" error={errors.name?.message}>
        <Input autoComplete="name" {...state.form.register("name")} />
      </Field>
      <EmailField id="register-email" error={errors.email?.message} registration={state.form.register("email")} />
      <NewPasswordField
        id="register-password"
        label="Password"
        error={errors.password?.message}
        registration={state.form.register("password")}
      />
    </ActionForm>
  );
}
