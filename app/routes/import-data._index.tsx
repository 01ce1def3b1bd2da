import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ImportLanding } from "~/components/import/landing";
import { ImportTypeView } from "~/components/import/type-view";
import { MappingStep } from "~/components/import/mapping-step";
import { getUploadForMapping } from "~/services/import/uploads.server";
import { IMPORT_TYPES, importTypesFor, isImportType, mayImportType } from "~/services/import/columns";
import { getPreviewPage, getRun, getRunWithUndo, recentRuns } from "~/services/import/runs.server";
import { isAppError } from "~/utils/app-error";
import { actorOf, requireUserWithPermission } from "~/http/auth.server";
import styles from "~/styles/import.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.type ? `Import ${data.type}` : "Import data"} · Fieldwork` },
];

/** A run of another tenant, a malformed id or none at all: the 404 page, all alike. */
async function orNotFound<T>(load: Promise<T>): Promise<T> {
  try {
    return await load;
  } catch (error) {
    if (isAppError(error) && error.status === 404) throw json({ message: error.message }, { status: 404 });
    throw error;
  }
}

const pageNumber = (v: string | null) => Math.max(1, Math.min(10_000, Number.parseInt(v ?? "1", 10) || 1));

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUserWithPermission(request, "import_csv");
  const actor = actorOf(user);
  const params = new URL(request.url).searchParams;
  const type = params.get("type");
  const previewId = params.get("preview");
  const runId = params.get("run");
  if (type !== null && !isImportType(type)) {
    throw json(
      { message: `There is no import type "${type}". Choose one of: ${IMPORT_TYPES.join(", ")}.` },
      { status: 404 },
    );
  }
  // A link without the type (or with the wrong one) goes to the run's own type.
  const id = runId ?? previewId;
  // Team members only for who may manage the team (an office user sees the other four types).
  if (type !== null && !mayImportType(user.role, type)) {
    throw json(
      { message: "Importing team members needs the manage_team permission (owner or admin)." },
      { status: 403 },
    );
  }
  if (id && !type) {
    const run = await orNotFound(getRun(actor, id));
    throw redirect(`/import-data?type=${run.type}&${runId ? "run" : "preview"}=${run.id}`);
  }
  if (!type)
    return json({
      type: null,
      types: importTypesFor(user.role),
      recent: await recentRuns(actor),
      preview: null,
      result: null,
      upload: null,
    });

  if (runId) {
    const { run, undo } = await orNotFound(getRunWithUndo(actor, runId));
    if (run.type !== type) throw redirect(`/import-data?type=${run.type}&run=${run.id}`);
    if (run.state === "previewed" || run.state === "superseded")
      throw redirect(`/import-data?type=${type}&preview=${run.id}`);
    return json({ type, recent: [], preview: null, result: { run, undo }, upload: null });
  }
  if (previewId) {
    const page = pageNumber(params.get("page"));
    const errorsPage = pageNumber(params.get("errors"));
    const onlyInvalid = params.get("rows") === "invalid";
    const preview = await orNotFound(getPreviewPage(actor, previewId, { page, onlyInvalid, errorsPage }));
    const run = preview.run;
    if (run.type !== type) throw redirect(`/import-data?type=${run.type}&preview=${run.id}`);
    // A committed preview is now an import run: show its result page.
    if (run.state === "committed" || run.state === "undone") throw redirect(`/import-data?type=${type}&run=${run.id}`);
    return json({
      type,
      recent: [],
      preview: { ...preview, page, errorsPage, onlyInvalid },
      result: null,
      upload: null,
    });
  }
  // The mapping step (section 14): the file's columns, first values and the fields chosen in advance.
  const uploadId = params.get("upload");
  if (uploadId) {
    const upload = await orNotFound(getUploadForMapping(actor, uploadId));
    if (upload.type !== type) throw redirect(`/import-data?type=${upload.type}&upload=${upload.id}`);
    return json({ type, recent: [], preview: null, result: null, upload });
  }
  return json({ type, recent: [], preview: null, result: null, upload: null });
}

export default function ImportDataPage() {
  const data = useLoaderData<typeof loader>();
  if (!data.type) return <ImportLanding recent={data.recent} types={"types" in data ? data.types : []} />;
  if (data.upload) return <MappingStep upload={data.upload} />;
  return <ImportTypeView type={data.type} preview={data.preview} result={data.result} />;
}
