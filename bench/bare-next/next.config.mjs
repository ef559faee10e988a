// Next's own floor for `npm run bench:search`: the least a page or a route costs with this Next, React and Node on
// this machine, built and served beside Agora in the same run so each of Agora's rows reads as a ratio to it.
// It resolves next and react from the repository's own node_modules, so both apps run the very same versions.
import path from "node:path";

/** @type {import('next').NextConfig} */
const config = {
  turbopack: { root: path.resolve(import.meta.dirname, "../..") },
  // As Agora's own config: pages kept in memory only, nothing written to disk at run time.
  experimental: { isrFlushToDisk: false },
  poweredByHeader: false,
};

export default config;
