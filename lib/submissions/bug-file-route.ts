/**
 * The GET handler of a route that answers one bug's text file (its test log,
 * its trajectory): the viewer of the request (scope `read` with a token), the
 * bug's position as the URL names it, and the file shown in the browser, or
 * downloaded when the URL asks `?download=1`, named for what it is. Who may
 * read it is the reader's to decide (NotFoundError: 404).
 */
import { getRequestViewer } from "@/lib/auth/viewer";
import type { Viewer } from "@/lib/authz";
import { errorResponse } from "@/lib/http/requests";
import { bugOrderParam } from "@/lib/submissions/urls";

type BugFile = { filename: string; text: string };
type Params = { params: Promise<{ id: string; chain: string; order: string }> };

export function bugTextFileRoute(read: (viewer: Viewer | null, id: string, continuousId: string, order: number) => Promise<BugFile>) {
  return async function GET(req: Request, { params }: Params): Promise<Response> {
    try {
      const { id, chain, order } = await params;
      const file = await read(await getRequestViewer(req, "read"), id, chain, bugOrderParam(order));
      const disposition = new URL(req.url).searchParams.get("download") === "1" ? "attachment" : "inline";
      return new Response(file.text, {
        headers: { "content-type": "text/plain; charset=utf-8", "content-disposition": `${disposition}; filename="${file.filename}"`, "cache-control": "no-store" },
      });
    } catch (e) {
      return errorResponse(e);
    }
  };
}
