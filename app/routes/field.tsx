import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useEffect, useMemo, useRef, useState } from "react";
import { EmptyState, PageHeader } from "~/components/layout";
import { JobCard, type CardActions, type CardFailure } from "~/components/field/job-card";
import { dayKey, describeAction, groupDay, nextDays, project, type ShownJob } from "~/components/field/project";
import { JobPhotos } from "~/components/field/job-photos";
import { SyncBar } from "~/components/field/sync-bar";
import { usePhotoQueue } from "~/components/field/use-photo-queue";
import { useFieldSync } from "~/components/field/use-field-sync";
import { dateTimeFormat } from "~/utils/format";
import type { FormReply } from "~/http/conform.server";
import { setFlash } from "~/services/accounts/sessions.server";
import { fieldDay } from "~/services/field/jobs.server";
import { applyFieldAction } from "~/services/field/mutations.server";
import { fieldFormAction } from "~/http/field-form.server";
import type { FieldFormInput } from "~/services/field/mutation-schemas";
import { STATUS_LABELS } from "~/services/field/protocol";
import fieldStyles from "~/styles/field.css";
import { actorOf, requireUserWithPermission, type Actor } from "~/http/auth.server";
import { passThroughHeaders } from "~/utils/route-headers";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: fieldStyles }];
export const meta: MetaFunction = () => [{ title: "My day · Fieldwork" }];
export const headers = passThroughHeaders;

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUserWithPermission(request, "use_offline_workflow");
  const { open, doneToday } = await fieldDay(actorOf(user), user.timeZone);
  return json({
    userId: user.id,
    timeZone: user.timeZone,
    renderedAt: new Date().toISOString(),
    open,
    doneToday,
  });
}

// The page's forms without JavaScript (conform, fieldFormSchema). They call the same operations
// as a push, applied at once (docs/decisions/033); with JavaScript the page queues them and pushes
// instead. The clock is the server's (docs/decisions/212): the status buttons carry it.

/** One form's action, applied at once; the flash message that says what happened. */
async function applyForm(actor: Actor, input: FieldFormInput): Promise<string> {
  // The card's visit, when it names one (a job without visits names none).
  const ids = input.visitId ? { jobId: input.jobId, visitId: input.visitId } : { jobId: input.jobId };
  switch (input.intent) {
    case "status":
      await applyFieldAction(actor, { type: "job.status", args: { ...ids, status: input.status } });
      return `Job marked ${STATUS_LABELS[input.status].toLowerCase()}.`;
    case "note":
      await applyFieldAction(actor, { type: "job.note", args: { ...ids, body: input.body } });
      return "Note saved.";
    case "clock":
      await applyFieldAction(actor, { type: "job.clock", args: { ...ids, action: input.action } });
      return input.action === "start" ? "Clock started." : "Clock stopped; the time is logged.";
    case "checklist":
      await applyFieldAction(actor, {
        type: "job.checklist",
        args: { ...ids, itemId: input.itemId, done: input.done },
      });
      return input.done ? "Checklist item ticked." : "Checklist item unticked.";
    case "complete": {
      // Completed first: a refusal (the checklist) stores nothing. The typed name is the
      // signature of a phone without JavaScript; it is stored on the completed job.
      await applyFieldAction(actor, { type: "job.status", args: { ...ids, status: "completed" } });
      const name = input.signerName?.trim();
      if (!name) return "Job marked completed.";
      await applyFieldAction(actor, { type: "job.signature", args: { ...ids, name } });
      return `Job marked completed, signed by ${name}.`;
    }
  }
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUserWithPermission(request, "use_offline_workflow");
  return fieldFormAction(request, async (input) => {
    const message = await applyForm(actorOf(user), input);
    await setFlash(user, { message, tone: "success" });
    return redirect(`/field#job-${input.jobId}`, 303);
  });
}

/** The time now, ticking every 30 s once the page runs (null on the server: nothing to hydrate wrongly). */
function useNow() {
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    setNow(Date.now());
    const tick = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(tick);
  }, []);
  return now;
}

const SECTIONS = [
  { key: "now", title: "Under way" },
  { key: "today", title: "Today" },
  { key: "upcoming", title: "Next days" },
  { key: "unscheduled", title: "Not scheduled" },
  { key: "done", title: "Done today" },
] as const;

export default function FieldPage() {
  const data = useLoaderData<typeof loader>();
  const reply = useActionData<FormReply>()?.result;
  const sync = useFieldSync(data, describeAction);
  const photos = usePhotoQueue(data.userId);
  const now = useNow();

  const { ready, enqueue } = sync;
  // Each card's visit: a queued action names it, so it lands on the visit the card showed.
  const visitOf = useRef(new Map<string, string>());
  visitOf.current = new Map(
    [...sync.jobs.open, ...sync.jobs.doneToday].flatMap((j) => (j.visitId ? [[j.id, j.visitId] as const] : [])),
  );
  const actions = useMemo<CardActions | undefined>(() => {
    if (!ready) return undefined;
    const ids = (jobId: string) => {
      const visitId = visitOf.current.get(jobId);
      return visitId ? { jobId, visitId } : { jobId };
    };
    return {
      status: (jobId, status) => void enqueue("job.status", { ...ids(jobId), status }),
      note: (jobId, body) => void enqueue("job.note", { ...ids(jobId), body }),
      clock: (jobId, action) => void enqueue("job.clock", { ...ids(jobId), action }),
      checklist: (jobId, itemId, done) => void enqueue("job.checklist", { ...ids(jobId), itemId, done }),
      complete: (jobId, signature) =>
        void (async () => {
          // In this order in the outbox: the signature lands on the job before it is completed.
          if (signature)
            await enqueue(
              "job.signature",
              signature.image
                ? { ...ids(jobId), name: signature.name, image: signature.image }
                : { ...ids(jobId), name: signature.name },
            );
          await enqueue("job.status", { ...ids(jobId), status: "completed" });
        })(),
    };
  }, [ready, enqueue]);

  const shown = project(sync.jobs.open, sync.jobs.doneToday, sync.pending);
  const groups = groupDay(shown, sync.jobs.at, data.timeZone);
  const failure = failureOf(reply);
  const openCount = shown.length - groups.done.length;
  const today = dateTimeFormat({ weekday: "long", month: "long", day: "numeric", timeZone: data.timeZone }).format(
    new Date(sync.jobs.at),
  );

  const todayKey = dayKey(sync.jobs.at, data.timeZone);
  const card = (job: ShownJob) => (
    <JobCard
      key={job.id}
      job={job}
      timeZone={data.timeZone}
      now={now}
      failure={failure?.jobId === job.id ? failure : undefined}
      actions={actions}
      showDay={!!job.scheduledStart && dayKey(job.scheduledStart, data.timeZone) !== todayKey}
      photos={<JobPhotos jobId={job.id} jobTitle={job.title} queue={photos} />}
    />
  );

  return (
    <div className="field-page">
      <PageHeader
        title="My day"
        description={
          <span suppressHydrationWarning>
            {today} · {openCount === 1 ? "1 open job" : `${openCount} open jobs`}
          </span>
        }
      />
      <SyncBar
        state={sync.state}
        pending={sync.pending.length}
        photos={photos.waiting}
        photoNote={photos.note}
        onSync={() => {
          void sync.syncNow();
          photos.uploadNow();
        }}
        timeZone={data.timeZone}
      />
      {sync.rejections.map((r) => (
        <div key={r.key} className="alert alert-error field-rejection" role="alert">
          <p>
            <strong>{r.what}</strong> could not be applied: {r.message}
          </p>
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => sync.dismiss(r.key)}>
            Dismiss
          </button>
        </div>
      ))}
      {failure && !shown.some((j) => j.id === failure.jobId) ? (
        <div className="alert alert-error" role="alert">
          {failure.formErrors.map((e) => (
            <p key={e}>{e}</p>
          ))}
        </div>
      ) : null}
      {shown.length === 0 ? (
        <EmptyState title="No jobs assigned to you">
          <p>When the office assigns you a job, it shows up here, and it keeps working when you lose signal.</p>
        </EmptyState>
      ) : (
        SECTIONS.filter((s) => groups[s.key].length).map((s) => (
          <section key={s.key} className="field-section" aria-labelledby={`section-${s.key}`}>
            <h2 id={`section-${s.key}`}>
              {s.title} <span className="muted">{groups[s.key].length}</span>
            </h2>
            {s.key === "upcoming" ? (
              nextDays(groups.upcoming, sync.jobs.at, data.timeZone).map((d) => (
                <div key={d.day} className="field-day">
                  <h3 className="field-day-title" suppressHydrationWarning>
                    {d.label} <span className="muted">{d.jobs.length === 1 ? "1 job" : `${d.jobs.length} jobs`}</span>
                  </h3>
                  <div className="job-list">{d.jobs.map(card)}</div>
                </div>
              ))
            ) : (
              <div className="job-list">{groups[s.key].map(card)}</div>
            )}
          </section>
        ))
      )}
    </div>
  );
}

/** The refused form's answer, for the card of the job it named. */
function failureOf(reply: FormReply["result"] | undefined): (CardFailure & { jobId?: string }) | undefined {
  if (!reply) return undefined;
  const { "": formErrors = [], ...fields } = (reply.error ?? {}) as Record<string, string[] | null>;
  const values = (reply.initialValue ?? {}) as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === "string" ? v : undefined);
  return {
    formErrors: formErrors ?? [],
    fields: Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v ?? []])),
    intent: text(values.intent),
    jobId: text(values.jobId),
  };
}
