"use client";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { KeyRound, Loader2, ShieldCheck } from "lucide-react";
import { toast } from "sonner";
import { CopyButton } from "@/components/content/copy-button";
import { Button } from "@/components/ui/button";
import { requestClaimToken, verifyClaim } from "@/lib/actions/claim-listing";

type Issued = { token: string; record: string; expiresAt: string; domain: string; namespace: string };

function Record({ label, value }: { label: string; value: string }) {
  return (
    <div className="mt-2">
      <p className="text-xs font-medium text-muted-foreground">{label}</p>
      <div className="mt-1 flex items-center gap-2 rounded-md border bg-muted/40 p-2">
        <code className="min-w-0 flex-1 font-mono text-xs break-all">{value}</code>
        <CopyButton value={value} label={`Copy ${label.toLowerCase()}`} />
      </div>
    </div>
  );
}

/**
 * A domain namespace's claim: get a one-time token, publish it (file or TXT record), verify. A server host's claim
 * (`hostOnly`) takes the file on the server's own origin only.
 */
export function DomainClaimPanel({
  listingId,
  domain,
  fileUrl,
  hostOnly = false,
}: {
  listingId: string;
  domain: string;
  fileUrl: string;
  hostOnly?: boolean;
}) {
  const router = useRouter();
  const [issued, setIssued] = useState<Issued | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [pending, start] = useTransition();

  const getToken = () =>
    start(async () => {
      setProblem(null);
      const result = await requestClaimToken(listingId);
      if (result.ok) setIssued(result.data);
      else setProblem(result.message);
    });
  const verify = (method: "well-known" | "dns") =>
    start(async () => {
      setProblem(null);
      const result = await verifyClaim({ listingId, method });
      if (result.ok) {
        const n = result.data.claimed;
        toast.success("Claimed", {
          description: `${n} listing${n === 1 ? "" : "s"} in ${result.data.namespace} ${n === 1 ? "is" : "are"} now yours.`,
        });
        router.push("/account#claimed-listings");
      } else setProblem(result.message);
    });

  return (
    <div className="grid gap-4">
      {!issued ? (
        <Button onClick={getToken} disabled={pending} className="justify-self-start">
          {pending ? <Loader2 className="animate-spin" /> : <KeyRound />} Get a claim token
        </Button>
      ) : (
        <div className="rounded-lg border p-4" data-testid="claim-token">
          <p className="text-sm">
            {hostOnly ? (
              "Publish this record in the file below, then press Verify."
            ) : (
              <>
                Publish this record in <strong>one</strong> of the two places below, then press the matching Verify
                button.
              </>
            )}{" "}
            The token works once, for this account and <code className="font-mono text-xs">{issued.namespace}</code>{" "}
            only, until <time dateTime={issued.expiresAt}>{new Date(issued.expiresAt).toUTCString()}</time>.
          </p>
          <Record label="Claim record" value={issued.record} />
          <h3 className="mt-5 font-semibold">
            {hostOnly ? "A file on the server's origin" : "A file on the domain's website"}
          </h3>
          <p className="mt-1 text-sm text-muted-foreground">
            Serve the record as the whole body of <code className="font-mono text-xs break-all">{fileUrl}</code>: status
            200, no redirect, at most 4 KB, answered within 10 seconds.
          </p>
          <Button variant="outline" size="sm" className="mt-2" onClick={() => verify("well-known")} disabled={pending}>
            {pending ? <Loader2 className="animate-spin" /> : <ShieldCheck />} Verify the file
          </Button>
          {!hostOnly && (
            <>
              <h3 className="mt-5 font-semibold">A DNS TXT record</h3>
              <p className="mt-1 text-sm text-muted-foreground">
                Add a TXT record at the apex of <code className="font-mono text-xs">{domain}</code> (host{" "}
                <code className="font-mono text-xs">@</code>) whose value is the record above.
              </p>
              <Button variant="outline" size="sm" className="mt-2" onClick={() => verify("dns")} disabled={pending}>
                {pending ? <Loader2 className="animate-spin" /> : <ShieldCheck />} Verify the DNS record
              </Button>
            </>
          )}
        </div>
      )}
      {problem && (
        <p
          role="alert"
          className="rounded-md border border-destructive/40 bg-destructive/5 p-3 text-sm break-words text-destructive"
          data-testid="claim-problem"
        >
          {problem}
        </p>
      )}
    </div>
  );
}
