import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import type { ShouldRevalidateFunction } from "@remix-run/react";
import { useFetcher, useLoaderData } from "@remix-run/react";
import { getFormProps } from "@conform-to/react";
import { Fragment, useEffect, useMemo, useRef, useState } from "react";
import { CopyButton, PrintButton } from "~/components/copy-button";
import { CsrfInput, Field, FieldErrors, FormError, useConformForm } from "~/components/forms";
import { PageHeader } from "~/components/layout";
import { DETAILS_MAX, forgetKeptResult, JOB_TITLE_MAX, resultFromFlash } from "~/services/assistant/assistant.server";
import { draftLinesOf, type DraftLine } from "~/services/assistant/draft-lines";
import type { AssistantData } from "~/services/assistant/engine";
import { assistantInputSchema } from "~/services/assistant/schema";
import { requireUserWithPermission } from "~/http/auth.server";
import { can } from "~/utils/permissions";
import { passThroughHeaders } from "~/utils/route-headers";

export const headers = passThroughHeaders;

export const meta: MetaFunction = () => [{ title: "Assistant · Fieldwork" }];

const GENERATE = "/ai-assistant/generate";
const QUOTE_BUILDER = "/quotes/new";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUserWithPermission(request, "use_ai_assistant");
  // A form post without JavaScript left its answer (or its errors) in the flash: shown once.
  const kept = resultFromFlash(user.flash);
  if (kept) await forgetKeptResult(user);
  return json(
    {
      kept,
      limits: { jobTitle: JOB_TITLE_MAX, details: DETAILS_MAX },
      // The quote builder needs manage_records; others see the guidance without the button.
      canStartQuote: can(user.role, "manage_records"),
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}

// The JSON answer is rendered in place: nothing on this page changes when it arrives.
export const shouldRevalidate: ShouldRevalidateFunction = ({ formAction, defaultShouldRevalidate }) =>
  formAction === GENERATE ? false : defaultShouldRevalidate;

const MODES = [
  {
    value: "quote",
    label: "Quote checklist",
    hint: "Line items, labour hours, disposal, permits, good/better/best, deposit",
  },
  {
    value: "schedule",
    label: "Schedule",
    hint: "Duration with reasoning, arrival window, travel buffer, crew, parts to load",
  },
  { value: "general", label: "Next steps", hint: "What to do next, safety notes, the follow-up after the job" },
] as const;

const MODE_LABEL: Record<string, string> = Object.fromEntries(MODES.map((m) => [m.value, m.label]));

const EXAMPLES = [
  "Replace 50 gallon gas water heater in garage, existing venting corroded",
  "Panel upgrade from 100 to 200 amp",
  "AC tune-up before summer, two-story house",
  "Kitchen sink drain clogged",
  "Add 3 GFCI outlets in kitchen",
];

type Asked = { job_title: string; details: string };

type GenerateReply =
  | { success: true; data: AssistantData }
  | { success: false; error: { code: string; message: string; fields: Record<string, string[]> } };

export default function AssistantPage() {
  const { kept, limits, canStartQuote } = useLoaderData<typeof loader>();
  const fetcher = useFetcher<GenerateReply>();
  const reply = fetcher.data;
  // JavaScript on: the fetcher's JSON answer; off: what the form post left in the flash.
  const data = reply ? (reply.success ? reply.data : null) : kept?.ok ? (kept.data as AssistantData) : null;
  const serverErrors = reply ? (reply.success ? null : reply.error.fields) : kept && !kept.ok ? kept.fields : null;
  const formError =
    reply && !reply.success && Object.keys(reply.error.fields).length === 0 ? reply.error.message : null;
  const values = kept?.input;
  // The route answers the contract's envelope (or the flash, without JavaScript); conform
  // reads its field errors as the last result and validates with the same schema before posting.
  const lastResult = useMemo(
    () => (serverErrors ? { status: "error" as const, initialValue: values ?? {}, error: serverErrors } : null),
    [serverErrors, values],
  );
  const [form, conformFields] = useConformForm(assistantInputSchema, { id: "assistant", lastResult });
  const fields = {
    mode: conformFields.mode.errors,
    job_title: conformFields.job_title.errors,
    details: conformFields.details.errors,
  };
  const busy = fetcher.state !== "idle";
  // What the shown guidance was asked for, printed above it (the form itself is not printed).
  const [asked, setAsked] = useState<Asked | null>(null);
  const askedFor = reply ? asked : (values ?? null);
  const checkedMode = MODES.some((m) => m.value === values?.mode) ? values!.mode : "quote";

  return (
    <>
      <div className="no-print">
        <PageHeader
          title="Assistant"
          description="Quote checklists, schedule estimates and next steps for plumbing, drains, water heating, electrical, HVAC, appliance, handyman, roofing and gutter, garage door and irrigation jobs, from built-in trade rules."
        />
      </div>
      <section className="card assistant-form no-print" aria-label="Ask the assistant">
        <fetcher.Form
          method="post"
          action={GENERATE}
          className="stack"
          {...getFormProps(form)}
          onSubmit={(e) => {
            const posted = new FormData(e.currentTarget);
            setAsked({
              job_title: String(posted.get("job_title") ?? ""),
              details: String(posted.get("details") ?? ""),
            });
            form.onSubmit(e);
          }}
        >
          <CsrfInput />
          <FormError errors={formError ? [formError] : null} />
          <fieldset
            className={`assistant-modes${fields.mode?.length ? " field-invalid" : ""}`}
            aria-describedby={fields.mode?.length ? "field-mode-error" : undefined}
          >
            <legend>What do you need?</legend>
            <div className="mode-options">
              {MODES.map((m) => (
                <label key={m.value} className="mode-option">
                  <input type="radio" name="mode" value={m.value} defaultChecked={checkedMode === m.value} />
                  <span>
                    <span className="mode-label">{m.label}</span>
                    <span className="mode-hint">{m.hint}</span>
                  </span>
                </label>
              ))}
            </div>
            <FieldErrors id="field-mode-error" errors={fields.mode} />
          </fieldset>
          <Field
            name="job_title"
            label="Job title"
            maxLength={limits.jobTitle}
            defaultValue={values?.job_title}
            errors={fields.job_title}
            placeholder="e.g. Replace 50 gallon gas water heater"
            hint={`Name the equipment and the work. Up to ${limits.jobTitle} characters.`}
          />
          <div className={`field${fields.details?.length ? " field-invalid" : ""}`}>
            <label htmlFor="field-details">Details</label>
            <textarea
              id="field-details"
              name="details"
              rows={5}
              maxLength={limits.details}
              defaultValue={values?.details}
              placeholder="Size, age, location and access (attic, crawlspace, second floor), urgency, what the customer reported…"
              aria-invalid={fields.details?.length ? true : undefined}
              aria-describedby={`field-details-hint${fields.details?.length ? " field-details-error" : ""}`}
            />
            <p id="field-details-hint" className="field-hint">
              Optional. Sizes, counts and access words change the estimate. Up to{" "}
              {limits.details.toLocaleString("en-US")} characters.
            </p>
            <FieldErrors id="field-details-error" errors={fields.details} />
          </div>
          <div className="assistant-submit">
            <button type="submit" className="btn btn-primary" disabled={busy}>
              {busy ? "Working…" : "Get guidance"}
            </button>
            <span className="muted small">
              Runs on this server: nothing is sent to another service and no record changes.
            </span>
          </div>
        </fetcher.Form>
      </section>
      {data ? (
        <GuidanceView data={data} asked={askedFor} focus={Boolean(reply)} canStartQuote={canStartQuote} />
      ) : (
        <NoGuidanceYet />
      )}
    </>
  );
}

function NoGuidanceYet() {
  return (
    <section className="card assistant-empty no-print" aria-labelledby="examples-title">
      <h2 id="examples-title">Guidance appears here</h2>
      <p className="muted">
        Pick what you need and name the job. The assistant recognises common plumbing, drain, water heating, electrical,
        HVAC, appliance, handyman, roofing and gutter, garage door and irrigation work from the words you use (shorthand
        and typos included), and reads where it is, what state it is in, sizes, age, access and urgency, for example:
      </p>
      <ul className="example-list">
        {EXAMPLES.map((e) => (
          <li key={e}>{e}</li>
        ))}
      </ul>
    </section>
  );
}

/** The guidance as plain text, for the clipboard (a quote email, a job note). */
function toPlainText(data: AssistantData): string {
  const { title, summary, sections } = data.guidance;
  const body = sections.map((s) => [s.heading, ...s.items.map((i) => `- ${i}`)].join("\n"));
  return [title, summary, ...body].join("\n\n") + "\n";
}

/**
 * "Start a quote from this": a plain GET form to the quote builder with the draft lines as
 * repeated `item`/`qty` parameters (the builder's prefill interface). It works without
 * JavaScript and stores nothing; the builder prices each line from the price book and saves
 * only when the user saves the quote.
 */
function StartQuote({ lines }: { lines: readonly DraftLine[] }) {
  return (
    <form method="get" action={QUOTE_BUILDER} className="start-quote no-print">
      {lines.map((line, i) => (
        <Fragment key={i}>
          <input type="hidden" name="item" value={line.name} />
          <input type="hidden" name="qty" value={String(line.qty)} />
        </Fragment>
      ))}
      <button type="submit" className="btn btn-primary">
        Start a quote from this
      </button>
      <span className="muted small">
        Opens a new quote with these {lines.length} lines, priced from your price book. Nothing is saved until you save
        the quote.
      </span>
    </form>
  );
}

function GuidanceView({
  data,
  asked,
  focus,
  canStartQuote,
}: {
  data: AssistantData;
  asked: Asked | null;
  focus: boolean;
  canStartQuote: boolean;
}) {
  const draft = canStartQuote ? draftLinesOf(data) : [];
  const heading = useRef<HTMLHeadingElement>(null);
  // A new answer from the fetcher: move focus (and the view) to it, as a page load would.
  useEffect(() => {
    if (focus) heading.current?.focus();
  }, [data, focus]);
  return (
    <article id="guidance" className="card guidance" aria-labelledby="guidance-title">
      <header className="guidance-header">
        <div>
          <p className="guidance-kind">{MODE_LABEL[data.mode] ?? data.mode}</p>
          <h2 id="guidance-title" ref={heading} tabIndex={-1}>
            {data.guidance.title}
          </h2>
        </div>
        <div className="guidance-actions no-print">
          <CopyButton text={toPlainText(data)} />
          <PrintButton />
        </div>
      </header>
      {asked && (asked.job_title.trim() || asked.details.trim()) ? (
        <dl className="guidance-asked">
          {asked.job_title.trim() ? (
            <>
              <dt>Job</dt>
              <dd>{asked.job_title}</dd>
            </>
          ) : null}
          {asked.details.trim() ? (
            <>
              <dt>Details</dt>
              <dd>{asked.details}</dd>
            </>
          ) : null}
        </dl>
      ) : null}
      <p className="guidance-summary">{data.guidance.summary}</p>
      {draft.length > 0 ? <StartQuote lines={draft} /> : null}
      <div className="guidance-sections">
        {data.guidance.sections.map((s) => (
          <section key={s.heading} className="guidance-section">
            <h3>{s.heading}</h3>
            <ul>
              {s.items.map((item, i) => (
                <li key={i}>{item}</li>
              ))}
            </ul>
          </section>
        ))}
      </div>
      <p className="guidance-footer">
        Built-in rules, version {data.engineVersion}. Check quantities, prices and local code on site before quoting.
      </p>
    </article>
  );
}
