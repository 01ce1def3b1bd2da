import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useCallback, useEffect, useMemo, useState } from "react";
import { EmptyState, PageHeader } from "~/components/layout";
import { JobCard, type CardActions, type CardFailure } from "~/components/field/job-card";
import { dayKey, describeAction, formatMinutes, groupDay, nextDays, project, type ShownJob } from "~/components/field/project";
import { JobPhotos } from "~/components/field/job-photos";
import { SyncBar } from "~/components/field/sync-bar";
import { usePhotoQueue } from "~/components/field/use-photo-queue";
import { useFieldSync } from "~/components/field/use-field-sync";
import { dateTimeFormat } from "~/utils/format";
import { formObject, parseWith, staffFormAction, type FormFailure } from "~/http/form.server";
import { setFlash } from "~/services/accounts/sessions.server";
import { fieldDay, openAssignedJobs } from "~/services/sync/jobs.server";
import { applyFieldAction } from "~/services/sync/mutations.server";
import { fieldFormSchema } from "~/services/sync/schemas";
import { parseTimer, STATUS_LABELS, TIME_ENTRY_MAX_MS, timerCookie, type FieldTimer } from "~/services/sync/protocol";
import fieldStyles from "~/styles/field.css";
import { conflict } from "~/utils/app-error";
import { actorOf, requireUserWithPermission } from "~/utils/auth.server";
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
    timer: parseTimer(request.headers.get("cookie")),
  });
}

// The page's forms without JavaScript (fieldFormSchema). They call the same operations as a
// push, applied at once (docs/decisions/033); with JavaScript the page queues them and pushes instead.

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUserWithPermission(request, "use_offline_workflow");
  const actor = actorOf(user);
  return staffFormAction(request, async (form) => {
    const input = parseWith(fieldFormSchema, formObject(form));
    const timer = parseTimer(request.headers.get("cookie"));
    let message: string;
    let cookie: string | undefined;
    switch (input.intent) {
      case "status":
        await applyFieldAction(actor, { type: "job.status", args: { jobId: input.jobId, status: input.status } });
        message = `Job marked ${STATUS_LABELS[input.status].toLowerCase()}.`;
        break;
      case "note":
        await applyFieldAction(actor, { type: "job.note", args: { jobId: input.jobId, body: input.body } });
        message = "Note saved.";
        break;
      case "timer-start": {
        if (timer && timer.jobId !== input.jobId) {
          const running = (await openAssignedJobs(actor)).find((j) => j.id === timer.jobId);
          // A timer left on a job that is no longer yours or open is simply replaced.
          if (running) throw conflict(`A timer is running on “${running.title}”. Stop it first.`);
        }
        cookie = timerCookie({ jobId: input.jobId, startedAt: new Date().toISOString() });
        message = "Timer started.";
        break;
      }
      case "timer-stop": {
        if (!timer || timer.jobId !== input.jobId) throw conflict("No timer is running for this job.");
        const endedAt = new Date().toISOString();
        if (Date.parse(endedAt) - Date.parse(timer.startedAt) > TIME_ENTRY_MAX_MS) {
          // A timer forgotten for more than a day logs nothing (an entry spans at most 24 hours):
          // it is stopped and the technician told, instead of failing every stop for ever.
          await setFlash(user, { message: "The timer ran for more than 24 hours, so it was stopped without logging time.", tone: "error" });
          return redirect(`/field#job-${input.jobId}`, { status: 303, headers: { "Set-Cookie": timerCookie(null) } });
        }
        await applyFieldAction(actor, { type: "job.time_entry", args: { jobId: input.jobId, startedAt: timer.startedAt, endedAt } });
        cookie = timerCookie(null);
        message = `Logged ${formatMinutes(Math.max(0, Math.round((Date.parse(endedAt) - Date.parse(timer.startedAt)) / 60_000)))}.`;
        break;
      }
    }
    await setFlash(user, { message, tone: "success" });
    return redirect(`/field#job-${input.jobId}`, { status: 303, headers: cookie ? { "Set-Cookie": cookie } : {} });
  });
}

const SECTIONS = [
  { key: "now", title: "Under way" },
  { key: "today", title: "Today" },
  { key: "upcoming", title: "Next days" },
  { key: "unscheduled", title: "Not scheduled" },
  { key: "done", title: "Done today" },
] as const;

function useTimer(initial: FieldTimer | null) {
  const [timer, setTimer] = useState(initial);
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    setTimer(parseTimer(document.cookie));
    setNow(Date.now());
    const tick = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(tick);
  }, []);
  const elapsed = timer && now ? formatMinutes(Math.max(0, Math.round((now - Date.parse(timer.startedAt)) / 60_000))) : null;
  const set = useCallback((t: FieldTimer | null) => {
    document.cookie = timerCookie(t);
    setTimer(t);
  }, []);
  return { timer, elapsed, set };
}

export default function FieldPage() {
  const data = useLoaderData<typeof loader>();
  const failed = useActionData<FormFailure>();
  const sync = useFieldSync(data, describeAction);
  const photos = usePhotoQueue(data.userId);
  const { timer, elapsed, set: setTimer } = useTimer(data.timer);

  const { ready, enqueue } = sync;
  const actions = useMemo<CardActions | undefined>(() => {
    if (!ready) return undefined;
    return {
      status: (jobId, status) => void enqueue("job.status", { jobId, status }),
      note: (jobId, body) => void enqueue("job.note", { jobId, body }),
      startTimer: (jobId) => setTimer({ jobId, startedAt: new Date().toISOString() }),
      stopTimer: (jobId) => {
        if (!timer || timer.jobId !== jobId) return;
        void enqueue("job.time_entry", { jobId, startedAt: timer.startedAt, endedAt: new Date().toISOString() });
        setTimer(null);
      },
    };
  }, [ready, enqueue, timer, setTimer]);

  const shown = project(sync.jobs.open, sync.jobs.doneToday, sync.pending);
  const groups = groupDay(shown, sync.jobs.at, data.timeZone);
  const failure: (CardFailure & { jobId?: string }) | undefined = failed
    ? { formErrors: failed.formErrors, fields: failed.fields, intent: failed.values?.intent, jobId: failed.values?.jobId }
    : undefined;
  const openCount = shown.length - groups.done.length;
  const today = dateTimeFormat({ weekday: "long", month: "long", day: "numeric", timeZone: data.timeZone }).format(new Date(sync.jobs.at));

  const todayKey = dayKey(sync.jobs.at, data.timeZone);
  const card = (job: ShownJob) => (
    <JobCard
      key={job.id}
      job={job}
      timeZone={data.timeZone}
      timer={timer}
      elapsed={elapsed}
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
