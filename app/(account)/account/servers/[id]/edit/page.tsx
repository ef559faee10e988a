import type { Metadata } from "next";
import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import { ArrowLeft } from "lucide-react";
import { EditNotice } from "@/components/account/edit-notice";
import { SubmitServerForm } from "@/components/submit/submit-server-form";
import { getDb } from "@/lib/database";
import { findOwnListing } from "@/lib/listings/owned";
import { currentUser } from "@/lib/auth/current-user";

export const metadata: Metadata = { title: "Edit server", robots: { index: false } };

export default async function EditServerPage({ params }: { params: Promise<{ id: string }> }) {
  const user = await currentUser();
  if (!user) redirect("/login");
  const { id } = await params;
  const listing = await findOwnListing(await getDb(), user.id, id);
  if (!listing) notFound();
  // The form starts from a pending edit (saving replaces it); a rejected edit is shown, not reloaded.
  const start = listing.edit?.status === "pending" ? listing.edit.proposed : listing;
  return (
    <div className="mx-auto max-w-2xl px-4 py-12 sm:px-6">
      <Link
        href="/account"
        className="inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground"
      >
        <ArrowLeft className="size-4" /> Your account
      </Link>
      <h1 className="mt-4 text-3xl font-bold tracking-tight">Edit {listing.name}</h1>
      <p className="mt-2 mb-8 text-muted-foreground">
        {listing.status === "approved"
          ? "Saving sends your changes to review; the approved version stays in the marketplace until an admin approves them."
          : "Saving sends the server back to review; it leaves the marketplace until an admin approves it again."}
      </p>
      {listing.edit && (
        <div className="mb-8">
          <EditNotice edit={listing.edit} />
        </div>
      )}
      <SubmitServerForm
        editing={{
          id: listing.id,
          values: {
            name: start.name,
            description: start.description,
            mcpServerUrl: start.serverUrl,
            websiteUrl: start.websiteUrl ?? "",
            categories: start.categories,
            // Named tools were saved with the owner's consent, so the box starts ticked.
            paidTools: start.paidTools,
            readPricesConsent: start.paidTools.length > 0,
          },
        }}
      />
    </div>
  );
}
