"use client";
import { useRouter } from "next/navigation";
import { zodResolver } from "@hookform/resolvers/zod";
import { toast } from "sonner";
import { Field, FormAlert } from "@/components/forms/field";
import { SubmitButton } from "@/components/forms/submit-button";
import { useActionForm } from "@/components/forms/use-action-form";
import { Input } from "@/components/ui/input";
import { registerWithEmail } from "@/lib/actions/register-account";
import { MIN_PASSWORD_LENGTH, registerSchema, type RegisterInput } from "@/lib/validations/auth";

export function RegisterForm() {
  const router = useRouter();
  const { form, failure, onSubmit } = useActionForm<RegisterInput, null>({
    resolver: zodResolver(registerSchema),
    defaultValues: { name: "", email: "", password: "" },
    action: registerWithEmail,
    onSuccess: () => {
      toast.success("Success", { description: "Your account has been created and you are signed in. Check your inbox to confirm your email address." });
      router.replace("/submit");
    },
  });
  const { errors, isSubmitting } = form.formState;
  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4" aria-label="Create an account">
      <Field id="register-name" label="Name" error={errors.name?.message}>
        <Input autoComplete="name" {...form.register("name")} />
      </Field>
      <Field id="register-email" label="Email" error={errors.email?.message}>
        <Input type="email" autoComplete="email" {...form.register("email")} />
      </Field>
      <Field
        id="register-password"
        label="Password"
        hint={`At least ${MIN_PASSWORD_LENGTH} characters. Common passwords are refused.`}
        error={errors.password?.message}
      >
        <Input type="password" autoComplete="new-password" {...form.register("password")} />
      </Field>
      <FormAlert message={failure} />
      <SubmitButton busy={isSubmitting} busyLabel="Creating account...">
        Create account
      </SubmitButton>
    </form>
  );
}
