import { route } from "@/lib/http/route";
import { downloadParams, downloadResponse, noDownloadNamed } from "@/lib/downloads/served";

// GET /downloads/agora-mcp-client.tgz, /downloads/agora-mcp-server-0.1.0.tgz …: the packages this build made.
export const GET = route(
  {
    name: "downloads",
    database: false,
    params: { schema: downloadParams, notFound: ({ file }) => noDownloadNamed(String(file)) },
  },
  ({ params, request }) => downloadResponse(request, params.file),
);
