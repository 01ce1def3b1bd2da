import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { parseWithZod } from "@conform-to/zod";
import { ImportRefused } from "~/components/import/refused";
import { ImportTypeView } from "~/components/import/type-view";
import { replyWith, type FormReply } from "~/http/conform.server";
import { assertCsrf, assertSameOrigin } from "~/http/csrf.server";
import { toAppError } from "~/http/envelope.server";
import { readImportUpload } from "~/http/import-upload.server";
import { isImportType, mayImportType, type ImportType } from "~/services/import/columns";
import { createPreview } from "~/services/import/runs.server";
import { importUploadSchema } from "~/services/import/schemas";
import { analyseImportUpload, storeUpload } from "~/services/import/uploads.server";
import { AppError, forbidden } from "~/utils/app-error";
import { actorOf, requireUserWithPermission } from "~/http/auth.server";
import { passThroughHeaders } from "~/utils/route-headers";
import styles from "~/styles/import.css";
import type { RouteRules } from "~/http/route-rules";

// This route's rules for the boundary and the early checks (docs/decisions/265).
export const handle: RouteRules = { work: "import" };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];
export const headers = passThroughHeaders;
export const meta: MetaFunction = () => [{ title: "Import data · Fieldwork" }];

// GET: the upload form again (where a failed upload left the browser, e.g. after a reload).
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUserWithPermission(request, "import_csv");
  const type = new URL(request.url).searchParams.get("type");
  return json({ type: isImportType(type) ? type : null });
}

/** The upload's text fields (never `_csrf`, never the file) as conform reads a form. */
function submissionOf(fields: Record<string, string>, type: string | null) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) if (name !== "_csrf") form.set(name, value);
  if (type) form.set("type", type);
  return parseWithZod(form, { schema: importUploadSchema });
}

/** The form again with the message (conform's reply), for the type the upload was for (when it names one). */
const refuse = (
  fields: Record<string, string>,
  type: string | null,
  message: string,
  status: number,
  headers?: HeadersInit,
) => replyWith(submissionOf(fields, type), { status, formErrors: [message], fieldErrors: {}, headers });

// POST /import-data/preview (multipart: _csrf, type, file or csv). The file is parsed while it
// streams in; a file-level problem answers the form again with 400/413/422 and stores nothing.
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUserWithPermission(request, "import_csv");
  const actor = actorOf(user);
  const typeFromUrl = new URL(request.url).searchParams.get("type");
  let type: string | null = typeFromUrl;
  let fields: Record<string, string> = {};
  try {
    // A cross-site post is refused before its body is read; the token is checked once read.
    assertSameOrigin(request);
    const upload = await readImportUpload(request, {
      typeFromUrl,
      analyse: (type, input) => {
        // Before the file is read: a team file from a role that may not manage the team.
        if (!mayImportType(actor.role, type as ImportType))
          throw forbidden("Importing team members needs the manage_team permission (owner or admin).");
        return analyseImportUpload(actor, type as ImportType, input);
      },
      isFileError: (r) => !r.ok,
      isType: isImportType,
    });
    type = upload.type;
    fields = upload.fields;
    // The form's text fields through its schema (conform), as every form; the file was read beside it.
    const submission = submissionOf(upload.fields, upload.type);
    if (submission.status !== "success") return replyWith(submission, { status: 400 });
    type = submission.value.type;
    if (!upload.file) throw new AppError("BAD_REQUEST", "Choose a CSV file, or paste CSV text.");
    const result = upload.file.result;
    // A file error changes nothing, and reading stopped at it (maybe before the token).
    if (!result.ok)
      return replyWith(submission, { status: result.status, formErrors: [result.message], fieldErrors: {} });
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
    return refuse(fields, type, e.message, e.status, e.headers);
  }
}

export default function ImportUploadPage() {
  const loaded = useLoaderData<typeof loader>();
  const reply = useActionData<FormReply>()?.result;
  const posted = reply?.initialValue?.type;
  const type: ImportType | null = isImportType(posted) ? posted : loaded.type;
  if (!type) {
    const errors = reply ? Object.values(reply.error ?? {}).flat() : [];
    return (
      <ImportRefused
        title="Choose what to import"
        errors={errors.length ? (errors as string[]) : ["Pick a type of records, then upload its file."]}
        back="/import-data"
      />
    );
  }
  return <ImportTypeView type={type} uploadResult={reply} />;
}
