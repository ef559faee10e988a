import type { MetadataRoute } from "next";
import { siteUrl } from "@/lib/site";

export default function robots(): MetadataRoute.Robots {
  return {
    rules: [{ userAgent: "*", allow: "/", disallow: ["/api/", "/account", "/admin", "/auth/", "/logout", "/catalogue-page/"] }],
    sitemap: `${siteUrl()}/sitemap.xml`,
    // The Host directive takes a host name (with its port, if any), not a URL.
    host: new URL(siteUrl()).host,
  };
}
