import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { ImportRefused, ImportTypeView } from "~/components/import/import-page";
import { assertCsrf, assertSameOrigin } from "~/http/csrf.server";
import { toAppError } from "~/http/envelope.server";
import type { FormFailure } from "~/http/form.server";
import { readImportUpload } from "~/http/import-upload.server";
import { IMPORT_TYPES, isImportType, mayImportType, type ImportType } from "~/services/import/columns";
import { createPreview } from "~/services/import/runs.server";
import { analyseImportUpload, storeUpload } from "~/services/import/uploads.server";
import { AppError, forbidden } from "~/utils/app-error";
import { actorOf, requireUserWithPermission } from "~/utils/auth.server";
import { passThroughHeaders } from "~/utils/route-headers";
import styles from "~/styles/import.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];
export const headers = passThroughHeaders;
export const meta: MetaFunction = () => [{ title: "Import data · Fieldwork" }];

// GET: the upload form again (where a failed upload left the browser, e.g. after a reload).
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUserWithPermission(request, "import_csv");
  const type = new URL(request.url).searchParams.get("type");
  return json({ type: isImportType(type) ? type : null });
}

type UploadFailure = FormFailure & { type: ImportType | null };
/** The form again with the message, for the type the upload was for (when it names one). */
const failure = (message: string, type: string | null | undefined): UploadFailure => ({
  ok: false,
  formErrors: [message],
  fields: {},
  type: isImportType(type) ? type : null,
});

// POST /import-data/preview (multipart: _csrf, type, file or csv). The file is parsed while it
// streams in; a file-level problem answers the form again with 400/413/422 and stores nothing.
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUserWithPermission(request, "import_csv");
  const actor = actorOf(user);
  const typeFromUrl = new URL(request.url).searchParams.get("type");
  let type: string | null = typeFromUrl;
  try {
    // A cross-site post is refused before its body is read; the token is checked once read.
    assertSameOrigin(request);
    const upload = await readImportUpload(request, {
      typeFromUrl,
      analyse: (type, input) => {
        // Before the file is read: a team file from a role that may not manage the team.
        if (!mayImportType(actor.role, type as ImportType)) throw forbidden("Importing team members needs the manage_team permission (owner or admin).");
        return analyseImportUpload(actor, type as ImportType, input);
      },
      isFileError: (r) => !r.ok,
      isType: isImportType,
    });
    type = upload.type;
    if (!type || !isImportType(type)) {
      throw new AppError("BAD_REQUEST", type ? `"${type}" is not an import type. Choose one of: ${IMPORT_TYPES.join(", ")}.` : "Choose what to import.");
    }
    if (!upload.file) throw new AppError("BAD_REQUEST", "Choose a CSV file, or paste CSV text.");
    const result = upload.file.result;
    // A file error changes nothing, and reading stopped at it (maybe before the token).
    if (!result.ok) return json(failure(result.message, type), { status: result.status });
    const token = new FormData();
    if (upload.fields._csrf) token.set("_csrf", upload.fields._csrf);
    await assertCsrf(request, token);
    const info = { fileName: upload.file.name, bytes: upload.file.bytes };
    // Headers not all matched with certainty (section 14): the file waits at the mapping step.
    if ("needsMapping" in result) {
      const kept = await storeUpload(actor, result, info);
      return redirect(`/import-data?type=${type}&upload=${kept.id}`, 303);
    }
    const run = await createPreview(actor, result, info);
    return redirect(`/import-data?type=${type}&preview=${run.id}`, 303);
  } catch (error) {
    if (error instanceof Response) throw error;
    const e = toAppError(error, request);
    if (e.code === "CSRF_INVALID" || e.code === "FORBIDDEN") throw json({ message: e.message }, { status: e.status });
    return json(failure(e.message, type), { status: e.status, headers: e.headers });
  }
}

export default function ImportUploadPage() {
  const loaded = useLoaderData<typeof loader>();
  const result = useActionData<UploadFailure>();
  const type = result?.type ?? loaded.type;
  if (!type) {
    return <ImportRefused title="Choose what to import" errors={result?.formErrors ?? ["Pick a type of records, then upload its file."]} back="/import-data" />;
  }
  return <ImportTypeView type={type} uploadErrors={result?.formErrors} />;
}
