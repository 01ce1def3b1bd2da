// The page of one import type: its result or preview, the upload form and the columns table.
import { Link } from "@remix-run/react";
import type { SubmissionResult } from "@conform-to/react";
import { PageHeader } from "~/components/layout";
import type { ImportType } from "~/services/import/columns";
import { ColumnsTable } from "./columns-table";
import { Preview, type PreviewData } from "./preview";
import { RunResult, type ResultData } from "./result";
import { TYPE_INFO } from "./type-info";
import { UploadForm } from "./upload-form";

export function ImportTypeView({
  type,
  preview,
  result,
  uploadResult,
}: {
  type: ImportType;
  preview?: PreviewData | null;
  result?: ResultData | null;
  /** A refused upload's conform reply (POST /import-data/preview). */
  uploadResult?: SubmissionResult<string[]> | null;
}) {
  const info = TYPE_INFO[type];
  const showUpload = !result || result.run.state === "undone";
  return (
    <>
      <PageHeader
        title={`Import ${info.noun}`}
        description={info.text}
        actions={
          <>
            <Link to="/import-data" className="btn btn-ghost">
              All import types
            </Link>
            <a href={`/import-data/sample?type=${type}`} className="btn btn-secondary" download>
              Download sample CSV
            </a>
          </>
        }
      />
      {result ? <RunResult type={type} data={result} /> : null}
      {preview ? <Preview type={type} data={preview} /> : null}
      {showUpload ? (
        <section className="card" aria-labelledby="upload-title">
          <h2 id="upload-title">
            {!preview
              ? `Upload your ${info.noun}`
              : preview.run.valid
                ? "Upload another file"
                : "Upload a corrected file"}
          </h2>
          <p className="muted">
            Nothing is saved until you have seen the preview and chosen to import. Start from the{" "}
            <a href={`/import-data/sample?type=${type}`} download>
              sample file
            </a>{" "}
            if you are unsure of the format.
          </p>
          {/* A new preview starts with an empty form (with JavaScript the page is not reloaded). */}
          <UploadForm key={preview?.run.id ?? "new"} type={type} lastResult={uploadResult} />
        </section>
      ) : null}
      <ColumnsTable type={type} collapsed={Boolean(preview || result)} />
    </>
  );
}
