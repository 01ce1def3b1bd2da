import { createReadStream } from "node:fs";
import { Readable } from "node:stream";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { actorOf, requireUserWithPermission } from "~/http/auth.server";
import { toAppError } from "~/http/envelope.server";
import { messagePage } from "~/http/message-page.server";
import type { RouteRules } from "~/http/route-rules";
import { exportDownload } from "~/services/export/export.server";

// This route's rules for the boundary and the early checks (docs/decisions/265).
export const handle: RouteRules = {};

// GET /settings/export/<id>.zip: a ready export's ZIP, streamed from disk (owner, admin).
// Another business's, an expired or an unknown export: 404.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUserWithPermission(request, "export_account");
  try {
    const file = await exportDownload(actorOf(user), params.id ?? "");
    const body = Readable.toWeb(createReadStream(file.path)) as ReadableStream<Uint8Array>;
    return new Response(body, {
      headers: {
        "Content-Type": "application/zip",
        "Content-Length": String(file.size),
        "Content-Disposition": `attachment; filename="${file.fileName}"`,
        "Cache-Control": "private, no-store",
        "X-Content-Type-Options": "nosniff",
      },
    });
  } catch (error) {
    const e = toAppError(error, request);
    return messagePage(e.status, e.status === 404 ? "Export not found" : "The export could not be sent", e.message, {
      href: "/settings/export",
      label: "Back to Export your data",
    });
  }
}
