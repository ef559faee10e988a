"use client";
import { useRouter } from "next/navigation";
import { zodResolver } from "@hookform/resolvers/zod";
import { toast } from "sonner";
import { Field, FormAlert } from "@/components/forms/field";
import { SubmitButton } from "@/components/forms/submit-button";
import { useActionForm } from "@/components/forms/use-action-form";
import { Input } from "@/components/ui/input";
import { signInWithEmail } from "@/lib/actions/sign-in-with-email";
import { signInSchema, type SignInInput } from "@/lib/validations/auth";

export function EmailSignInForm() {
  const router = useRouter();
  const { form, failure, onSubmit } = useActionForm<SignInInput, null>({
    resolver: zodResolver(signInSchema),
    defaultValues: { email: "", password: "" },
    action: signInWithEmail,
    onSuccess: () => {
      toast.success("Success", { description: "You have been logged in successfully." });
      router.replace("/submit");
    },
  });
  const { errors, isSubmitting } = form.formState;
  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4" aria-label="Sign in with email">
      <Field id="signin-email" label="Email" error={errors.email?.message}>
        <Input type="email" autoComplete="email" {...form.register("email")} />
      </Field>
      <Field id="signin-password" label="Password" error={errors.password?.message}>
        <Input type="password" autoComplete="current-password" {...form.register("password")} />
      </Field>
      <FormAlert message={failure} />
      <SubmitButton busy={isSubmitting} busyLabel="Signing in...">
        Sign in
      </SubmitButton>
    </form>
  );
}
