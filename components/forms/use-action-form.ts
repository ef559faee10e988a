"use client";
import { useState } from "react";
import { useForm, type DefaultValues, type FieldValues, type Resolver } from "react-hook-form";
import type { ActionResult } from "@/lib/actions/result";

const UNREACHABLE = "Could not reach the server. Please try again.";

/**
 * A form validated in the browser (`resolver`) and sent to a server action: keeps the server's refusal as a
 * form-level message and calls `onSuccess` with the action's data.
 */
export function useActionForm<TValues extends FieldValues, TData>(options: {
  resolver: Resolver<TValues>;
  defaultValues: DefaultValues<TValues>;
  action: (values: TValues) => Promise<ActionResult<TData>>;
  onSuccess: (data: TData) => void;
}) {
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<TValues>({ resolver: options.resolver, defaultValues: options.defaultValues });
  const onSubmit = form.handleSubmit(async (values) => {
    setFailure(null);
    const result = await options.action(values).catch(() => null);
    if (!result?.ok) return setFailure(result?.message ?? UNREACHABLE);
    options.onSuccess(result.data);
  });
  return { form, failure, onSubmit };
}
