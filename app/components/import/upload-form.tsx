import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { useNavigate, useNavigation } from "@remix-run/react";
import { useState, type FormEvent } from "react";
import { FormError, useConformForm } from "~/components/forms";
import { useRootData } from "~/components/root-data";
import { IMPORT_LIMITS, type ImportType } from "~/services/import/columns";
import { importUploadSchema } from "~/services/import/schemas";

type Progress = { phase: "uploading"; loaded: number; total: number } | { phase: "checking" };

const MB = 1024 * 1024;
const mb = (n: number) => (n < MB ? `${Math.round(n / 1024)} KB` : `${(n / MB).toFixed(n < 10 * MB ? 1 : 0)} MB`);

/**
 * The upload form, on conform (`importUploadSchema`, checked on the server: the file itself is
 * read as a stream there). Without JavaScript it is a plain multipart POST (the server answers
 * a 303 to the preview, or the page again with conform's reply). With JavaScript it is sent
 * with XMLHttpRequest, whose upload events drive a progress bar; Remix's data protocol
 * (`_data`) gives the redirect, or the reply as JSON.
 */
export function UploadForm({ type, lastResult }: { type: ImportType; lastResult?: SubmissionResult<string[]> | null }) {
  const [form, fields] = useConformForm(importUploadSchema, {
    id: "import-upload",
    lastResult,
    serverOnly: true,
    defaultValue: { type },
  });
  const csrf = useRootData()?.csrf ?? "";
  const navigate = useNavigate();
  const navigation = useNavigation();
  const [progress, setProgress] = useState<Progress | null>(null);
  const [clientErrors, setClientErrors] = useState<string[] | null>(null);
  const action = `/import-data/preview?type=${type}`;
  const busy = progress !== null || navigation.state !== "idle";

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const file = data.get("file");
    if (file instanceof File && file.size > IMPORT_LIMITS.maxBytes) {
      setClientErrors([`The file is larger than ${IMPORT_LIMITS.maxBytes / MB} MiB. Split it into smaller files.`]);
      return;
    }
    setClientErrors(null);
    setProgress({ phase: "uploading", loaded: 0, total: file instanceof File ? file.size : 0 });
    const xhr = new XMLHttpRequest();
    xhr.open("POST", `${action}&_data=${encodeURIComponent("routes/import-data.preview")}`);
    xhr.upload.onprogress = (e) =>
      setProgress({ phase: "uploading", loaded: e.loaded, total: e.lengthComputable ? e.total : 0 });
    xhr.upload.onload = () => setProgress({ phase: "checking" });
    xhr.onload = () => {
      const to = xhr.getResponseHeader("X-Remix-Redirect");
      if (to) {
        navigate(to);
        setProgress(null);
        return;
      }
      let message = [`The upload failed (HTTP ${xhr.status}). Please try again.`];
      try {
        const body = JSON.parse(xhr.responseText) as { result?: SubmissionResult<string[]>; message?: string };
        const refused = body.result?.error?.[""] ?? Object.values(body.result?.error ?? {}).flat();
        message = refused.length ? (refused as string[]) : body.message ? [body.message] : message;
      } catch {
        /* not JSON: keep the generic message */
      }
      setClientErrors(message);
      setProgress(null);
    };
    xhr.onerror = () => {
      setClientErrors(["The upload did not reach the server. Check your connection and try again."]);
      setProgress(null);
    };
    xhr.send(data);
  }

  return (
    <form
      {...getFormProps(form)}
      method="post"
      action={action}
      encType="multipart/form-data"
      className="stack import-upload"
      onSubmit={onSubmit}
    >
      <input type="hidden" name="_csrf" value={csrf} />
      <input type="hidden" name={fields.type.name} value={type} />
      <FormError errors={clientErrors ?? form.errors ?? fields.type.errors} />
      <div className="field">
        <label htmlFor="import-file">CSV file</label>
        <input
          id="import-file"
          type="file"
          name="file"
          accept=".csv,text/csv,text/plain"
          aria-describedby="import-file-hint"
        />
        <p id="import-file-hint" className="field-hint">
          UTF-8 CSV (Excel: “CSV UTF-8”), up to {IMPORT_LIMITS.maxBytes / MB} MiB and{" "}
          {IMPORT_LIMITS.maxRows.toLocaleString("en-US")} rows. The first row names the columns.
        </p>
      </div>
      <details className="import-paste">
        <summary>Or paste CSV text instead</summary>
        <div className="field">
          <label htmlFor="import-csv">CSV text</label>
          <textarea id="import-csv" name="csv" rows={8} spellCheck={false} placeholder="name,email,phone" />
        </div>
      </details>
      <div role="status" aria-live="polite" className="import-progress">
        {progress?.phase === "uploading" ? (
          <>
            <progress value={progress.loaded} max={progress.total || undefined} />
            <span>
              Uploading…{" "}
              {progress.total
                ? `${mb(progress.loaded)} of ${mb(progress.total)} (${Math.round((progress.loaded / progress.total) * 100)}%)`
                : null}
            </span>
          </>
        ) : progress?.phase === "checking" ||
          (navigation.state !== "idle" && navigation.location?.search.includes("preview=")) ? (
          <>
            <progress />
            <span>Checking every row…</span>
          </>
        ) : null}
      </div>
      <div>
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? "Checking…" : "Upload and preview"}
        </button>
      </div>
    </form>
  );
}
