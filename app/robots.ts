import type { MetadataRoute } from "next";
import { siteUrl } from "@/lib/site";

// Rendered per request: the Host line is a bare host name, which the start-up rewrite of a build's origin
// (server/deployment-rewrite.mjs) would not find in a prerendered file.
export const dynamic = "force-dynamic";

export default function robots(): MetadataRoute.Robots {
  return {
    rules: [
      {
        userAgent: "*",
        allow: "/",
        disallow: ["/api/", "/account", "/admin", "/auth/", "/logout", "/catalogue-page/"],
      },
    ],
    sitemap: `${siteUrl()}/sitemap.xml`,
    // The Host directive takes a host name (with its port, if any), not a URL.
    host: new URL(siteUrl()).host,
  };
}
