"use client";
import { useState } from "react";
import { useRouter } from "next/navigation";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { Loader2 } from "lucide-react";
import { toast } from "sonner";
import { Field, FormAlert } from "@/components/forms/field";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { registerWithEmail } from "@/lib/actions/register-account";
import { MIN_PASSWORD_LENGTH, registerSchema, type RegisterInput } from "@/lib/validations/auth";

export function RegisterForm() {
  const router = useRouter();
  const [failure, setFailure] = useState<string | null>(null);
  const { register, handleSubmit, formState } = useForm<RegisterInput>({
    resolver: zodResolver(registerSchema),
    defaultValues: { name: "", email: "", password: "" },
  });

  async function onSubmit(values: RegisterInput) {
    setFailure(null);
    const result = await registerWithEmail(values).catch(() => null);
    if (!result?.ok) return setFailure(result?.message ?? "Could not reach the server. Please try again.");
    toast.success("Success", { description: "Your account has been created and you are signed in." });
    router.replace("/submit");
  }

  const { errors, isSubmitting } = formState;
  return (
    <form onSubmit={handleSubmit(onSubmit)} noValidate className="grid gap-4" aria-label="Create an account">
      <Field id="register-name" label="Name" error={errors.name?.message}>
        <Input autoComplete="name" {...register("name")} />
      </Field>
      <Field id="register-email" label="Email" error={errors.email?.message}>
        <Input type="email" autoComplete="email" {...register("email")} />
      </Field>
      <Field
        id="register-password"
        label="Password"
        hint={`At least ${MIN_PASSWORD_LENGTH} characters. Common passwords are refused.`}
        error={errors.password?.message}
      >
        <Input type="password" autoComplete="new-password" {...register("password")} />
      </Field>
      <FormAlert message={failure} />
      <Button type="submit" size="lg" className="w-full" disabled={isSubmitting}>
        {isSubmitting && <Loader2 className="animate-spin" />}
        {isSubmitting ? "Creating account..." : "Create account"}
      </Button>
    </form>
  );
}
