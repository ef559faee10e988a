import type { Metadata } from "next";
import { headers } from "next/headers";
import { SignOutOnOpen } from "@/components/auth/sign-out-on-open";

export const metadata: Metadata = { title: "Signing out", robots: { index: false } };

// Browsers say where a navigation came from (Sec-Fetch-Site): this site's own link is "same-origin", a typed
// address or bookmark "none". Anything else, or no header at all, is asked to confirm.
const SIGN_OUT_AT_ONCE = new Set(["same-origin", "none"]);

export default async function LogoutPage() {
  const site = (await headers()).get("sec-fetch-site");
  return <SignOutOnOpen confirm={!site || !SIGN_OUT_AT_ONCE.has(site)} />;
}
