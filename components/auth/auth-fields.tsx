"use client";
import type { UseFormRegisterReturn } from "react-hook-form";
import { Field } from "@/components/forms/field";
import { Input } from "@/components/ui/input";
import { MIN_PASSWORD_LENGTH } from "@/lib/validations/auth";

type FieldProps = { id: string; error?: string; registration: UseFormRegisterReturn };

/** The account's email address (sign-in, registration, password reset). */
export function EmailField({ id, error, registration }: FieldProps) {
  return (
    <Field id={id} label="Email" error={error}>
      <Input type="email" autoComplete="email" {...registration} />
    </Field>
  );
}

/** A password being chosen, with the rules it must meet. */
export function NewPasswordField({ id, label, error, registration }: FieldProps & { label: string }) {
  return (
    <Field
      id={id}
      label={label}
      hint={`At least ${MIN_PASSWORD_LENGTH} characters. Common passwords are refused.`}
      error={error}
    >
      <Input type="password" autoComplete="new-password" {...registration} />
    </Field>
  );
}
