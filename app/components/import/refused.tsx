// The pages of a refused import post (commit, undo, upload, a mapping no longer waiting).
import { Link, useActionData } from "@remix-run/react";
import { FormError } from "~/components/forms";
import { PageHeader } from "~/components/layout";
import type { SubmissionResult } from "@conform-to/react";

/** The page of /import-data/commit or /undo: the refusal of the post, or a hint on a plain visit. */
export function ImportFormRefused({
  field,
  refused,
  idle,
}: {
  field: "previewId" | "runId";
  refused: string;
  idle: [title: string, hint: string];
}) {
  // The conform reply of formAction (app/http/conform.server.ts): its form errors and the posted id.
  const result = useActionData<{ result: SubmissionResult<string[]> }>()?.result;
  const id = result?.initialValue?.[field];
  const query = field === "previewId" ? "preview" : "run";
  return (
    <ImportRefused
      title={result ? refused : idle[0]}
      errors={result ? (result.error?.[""] ?? []) : [idle[1]]}
      back={typeof id === "string" && id ? `/import-data?${query}=${encodeURIComponent(id)}` : "/import-data"}
    />
  );
}

export function ImportRefused({ title, errors, back }: { title: string; errors?: string[] | null; back: string }) {
  return (
    <>
      <PageHeader title={title} />
      <FormError errors={errors?.length ? errors : ["Nothing was changed."]} />
      <p>
        <Link to={back} className="btn btn-primary">
          Back to the import
        </Link>{" "}
        <Link to="/import-data" className="btn btn-ghost">
          All import types
        </Link>
      </p>
    </>
  );
}
