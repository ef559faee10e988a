"use client";
import { useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { Check, Copy, KeyRound, Loader2, Trash2 } from "lucide-react";
import { toast } from "sonner";
import { Field } from "@/components/forms/field";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { NativeSelect } from "@/components/ui/select";
import { createPersonalApiToken } from "@/lib/actions/create-api-token";
import { revokePersonalApiToken } from "@/lib/actions/revoke-api-token";
import { API_TOKEN_LIFETIMES, apiTokenSchema, type ApiTokenInput, type ApiTokenValues } from "@/lib/validations/auth";

type TokenRow = { id: string; name: string; prefix: string; created: string; lastUsed: string | null; expires: string };

/** Personal API tokens: create one (shown once), see when each was last used, revoke. */
export function ApiTokensPanel({ tokens }: { tokens: TokenRow[] }) {
  const router = useRouter();
  const [created, setCreated] = useState<{ token: string; name: string } | null>(null);
  const { register, handleSubmit, reset, formState } = useForm<ApiTokenValues, unknown, ApiTokenInput>({
    resolver: zodResolver(apiTokenSchema),
    defaultValues: { name: "", expiresInDays: 90 },
  });

  async function onCreate(values: ApiTokenInput) {
    const result = await createPersonalApiToken(values).catch(() => null);
    if (!result?.ok) {
      toast.error("Error", { description: result?.message ?? "An unknown error occurred" });
      if (result?.status === 401) router.refresh();
      return;
    }
    setCreated({ token: result.data.token, name: values.name });
    reset({ name: "", expiresInDays: values.expiresInDays });
    router.refresh();
  }

  const { errors, isSubmitting } = formState;
  return (
    <div className="grid gap-6">
      <form
        onSubmit={handleSubmit(onCreate)}
        noValidate
        className="grid gap-4 sm:grid-cols-[1fr_10rem_auto] sm:items-end"
        aria-label="Create an API token"
      >
        <Field id="token-name" label="Token name" error={errors.name?.message}>
          <Input placeholder="CI deploy script" autoComplete="off" {...register("name")} />
        </Field>
        <Field id="token-expiry" label="Expires after" error={errors.expiresInDays?.message}>
          <NativeSelect {...register("expiresInDays")}>
            {API_TOKEN_LIFETIMES.map((days) => (
              <option key={days} value={days}>
                {days} days
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? <Loader2 className="animate-spin" /> : <KeyRound />}
          {isSubmitting ? "Creating..." : "Create token"}
        </Button>
      </form>

      {created && <NewTokenNotice name={created.name} token={created.token} onDismiss={() => setCreated(null)} />}

      {tokens.length === 0 ? (
        <p className="rounded-lg border border-dashed p-6 text-center text-sm text-muted-foreground">
          No active API tokens.
        </p>
      ) : (
        <ul className="divide-y rounded-lg border" aria-label="API tokens">
          {tokens.map((token) => (
            <TokenItem key={token.id} token={token} />
          ))}
        </ul>
      )}
    </div>
  );
}

function NewTokenNotice({ name, token, onDismiss }: { name: string; token: string; onDismiss: () => void }) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    await navigator.clipboard.writeText(token).then(
      () => setCopied(true),
      () => toast.error("Copy failed: select the token and copy it by hand."),
    );
  }
  return (
    <div
      role="status"
      className="grid gap-3 rounded-lg border border-emerald-300 bg-emerald-50 p-4 text-sm text-emerald-950"
    >
      <p>
        <strong>{name}</strong> is ready. Copy it now: it will not be shown again.
      </p>
      <div className="flex gap-2">
        <Input
          readOnly
          value={token}
          aria-label="New API token"
          className="font-mono text-xs"
          onFocus={(e) => e.currentTarget.select()}
        />
        <Button type="button" variant="outline" onClick={copy} aria-label="Copy token">
          {copied ? <Check /> : <Copy />}
          {copied ? "Copied" : "Copy"}
        </Button>
      </div>
      <p className="text-emerald-900/80">
        Send it as <code className="font-mono">Authorization: Bearer &lt;token&gt;</code>.{" "}
        <button type="button" className="font-medium underline underline-offset-4" onClick={onDismiss}>
          Done
        </button>
      </p>
    </div>
  );
}

function TokenItem({ token }: { token: TokenRow }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  function revoke() {
    startTransition(async () => {
      const result = await revokePersonalApiToken(token.id).catch(() => null);
      if (!result?.ok) {
        toast.error("Error", { description: result?.message ?? "An unknown error occurred" });
        return;
      }
      toast.success("Token revoked", { description: `${token.name} no longer works.` });
      router.refresh();
    });
  }
  return (
    <li className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <p className="font-medium break-words">{token.name}</p>
        <p className="font-mono text-xs text-muted-foreground">{token.prefix}…</p>
        <dl className="mt-1 flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted-foreground">
          <div className="flex gap-1">
            <dt>Created</dt>
            <dd>{token.created}</dd>
          </div>
          <div className="flex gap-1">
            <dt>Last used</dt>
            <dd>{token.lastUsed ?? "Never"}</dd>
          </div>
          <div className="flex gap-1">
            <dt>Expires</dt>
            <dd>{token.expires}</dd>
          </div>
        </dl>
      </div>
      <Button
        type="button"
        variant="outline"
        size="sm"
        onClick={revoke}
        disabled={pending}
        aria-label={`Revoke ${token.name}`}
        className="self-start sm:self-center"
      >
        {pending ? <Loader2 className="animate-spin" /> : <Trash2 />}
        Revoke
      </Button>
    </li>
  );
}
