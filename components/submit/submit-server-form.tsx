"use client";
import { useState } from "react";
import { useRouter } from "next/navigation";
import { Controller, useForm, useWatch } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { Loader2 } from "lucide-react";
import { toast } from "sonner";
import { captureEvent } from "@/components/analytics/analytics";
import { Field } from "@/components/forms/field";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { editServer } from "@/lib/actions/edit-server";
import { submitServerForReview } from "@/lib/actions/submit-server";
import {
  MAX_CATEGORIES,
  serverSubmissionSchema,
  type ServerSubmission,
  type ServerSubmissionValues,
} from "@/lib/validations/server-submission";
import { CategoryInput } from "./category-input";
import { PaidToolsField } from "./paid-tools-field";
import { SubmittedNotice } from "./submitted-notice";

const empty: ServerSubmissionValues = {
  name: "",
  description: "",
  mcpServerUrl: "",
  websiteUrl: "",
  categories: [],
  paidTools: [],
  readPricesConsent: false,
};

/** Submits a new server, or (with `editing`) saves an owner's changes and sends the listing back to review. */
export function SubmitServerForm({ editing }: { editing?: { id: string; values: ServerSubmissionValues } } = {}) {
  const router = useRouter();
  const { register, handleSubmit, control, reset, setError, formState } = useForm<
    ServerSubmissionValues,
    unknown,
    ServerSubmission
  >({
    resolver: zodResolver(serverSubmissionSchema),
    defaultValues: editing?.values ?? empty,
  });
  const [submitted, setSubmitted] = useState<string | null>(null);

  async function onSubmit(values: ServerSubmission) {
    setSubmitted(null);
    const send = editing ? () => editServer(editing.id, values) : () => submitServerForReview(values);
    const result = await send().catch(() => ({
      ok: false as const,
      status: 0,
      message: "An unknown error occurred",
      errors: undefined,
    }));
    if (result.ok && editing) {
      toast.success("Saved", { description: "Your changes were sent for review." });
      router.push("/account");
      return;
    }
    if (result.ok) {
      toast.success("Success", { description: "Your MonetizedMCP server has been submitted successfully" });
      reset(empty);
      setSubmitted(values.name);
      void captureEvent("mcp_server_submitted", values);
      return;
    }
    toast.error("Error", { description: result.message });
    for (const [path, messages] of Object.entries(result.errors ?? {})) {
      // A list's entry ("paidTools.3") is shown on its list.
      const field = path.split(".")[0]!;
      if (field in empty) setError(field as keyof ServerSubmissionValues, { message: messages[0] });
    }
    if (result.status === 401) {
      // The session ended (expired, signed out elsewhere): drop client data and show the signed-out view.
      try {
        window.localStorage.clear();
      } catch {}
      router.refresh();
    }
  }

  const { errors, isSubmitting } = formState;
  // useWatch (not watch()): a subscription React can memoise around, re-rendering as the text changes.
  const description = useWatch({ control, name: "description" }) ?? "";
  const serverUrl = useWatch({ control, name: "mcpServerUrl" }) ?? "";
  return (
    <form onSubmit={handleSubmit(onSubmit)} noValidate className="grid gap-6" aria-label="Submit MonetizedMCP server">
      {submitted && <SubmittedNotice name={submitted} />}
      <Field id="server-name" label="Name" required error={errors.name?.message}>
        <Input placeholder="AI-Powered Web Scraper" autoComplete="off" {...register("name")} />
      </Field>
      <Field
        id="server-description"
        label="Description"
        required
        hint={<span aria-live="polite">{description.trim().length}/1000 characters, at least 10.</span>}
        error={errors.description?.message}
      >
        <Textarea
          rows={5}
          placeholder="What your server does, which tools it exposes and what they cost."
          {...register("description")}
        />
      </Field>
      <Field
        id="server-url"
        label="MCP Server URL"
        required
        hint="The public endpoint agents will call."
        error={errors.mcpServerUrl?.message}
      >
        <Input
          type="url"
          inputMode="url"
          placeholder="https://your-server.com/mcp"
          autoComplete="off"
          {...register("mcpServerUrl")}
        />
      </Field>
      <Field id="server-website" label="Website URL" optional error={errors.websiteUrl?.message}>
        <Input
          type="url"
          inputMode="url"
          placeholder="https://your-server.com"
          autoComplete="url"
          {...register("websiteUrl")}
        />
      </Field>
      <Controller
        control={control}
        name="categories"
        render={({ field, fieldState }) => (
          <div className="grid gap-2">
            <label htmlFor="server-categories" className="text-sm leading-none font-medium">
              Categories
            </label>
            <CategoryInput
              id="server-categories"
              value={Array.isArray(field.value) ? field.value : []}
              onChange={field.onChange}
              describedBy="server-categories-hint"
              invalid={Boolean(fieldState.error)}
            />
            <p
              id="server-categories-hint"
              className={fieldState.error ? "text-sm text-destructive" : "text-xs text-muted-foreground"}
            >
              {fieldState.error?.message ?? `Up to ${MAX_CATEGORIES}. Press Enter or Add after each one.`}
            </p>
          </div>
        )}
      />
      <PaidToolsField control={control} serverUrl={serverUrl.trim()} />
      <Button type="submit" size="lg" className="w-full sm:w-auto sm:justify-self-start" disabled={isSubmitting}>
        {isSubmitting && <Loader2 className="animate-spin" />}
        {isSubmitting ? "Uploading..." : editing ? "Save and resubmit" : "Submit for review"}
      </Button>
    </form>
  );
}
