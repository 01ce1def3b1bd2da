import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Fragment } from "react";
import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { Form, Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { SelectField, TextField } from "~/components/conform-fields";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { CsrfInput, FormError } from "~/components/forms";
import { PageHeader } from "~/components/layout";
import { DateTime } from "~/components/records";
import { formAction, type FormReply } from "~/http/conform.server";
import { setFlash } from "~/services/accounts/sessions.server";
import { addMemberSchema, teamFormSchema } from "~/services/team/schemas";
import { addMember, changeRole, listMembers } from "~/services/team/team.server";
import { actorOf, requireUserWithPermission } from "~/http/auth.server";
import { can, ROLE_LABELS, ROLES, type Role } from "~/utils/permissions";

export const meta: MetaFunction = () => [{ title: "Team · Fieldwork" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUserWithPermission(request, "manage_team");
  return json({
    members: await listMembers(user.tenantId),
    me: { id: user.id, role: user.role },
    timeZone: user.timeZone,
    canImport: can(user.role, "import_csv"),
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUserWithPermission(request, "manage_team");
  const actor = actorOf(user);
  return formAction(request, teamFormSchema, async (input) => {
    let message: string;
    if (input.intent === "role") {
      const result = await changeRole(actor, input.userId, input.role);
      message = result.changed
        ? `${result.name} is now ${ROLE_LABELS[result.role]}. It applies from their next page.`
        : `${result.name} is already ${ROLE_LABELS[result.role]}.`;
    } else {
      await addMember(actor, input);
      message = `${input.name} was added. Create an invite link so they can set a password and sign in.`;
    }
    await setFlash(user, { message, tone: "success" });
    return redirect("/team", 303);
  });
}

/** The add-a-member form; a fresh one after each member added (the page keys it by location). */
function AddMemberForm({ lastResult, grantable }: { lastResult: FormReply["result"] | undefined; grantable: Role[] }) {
  const [addForm, addFields] = useForm({
    id: "add-member",
    lastResult,
    defaultValue: { role: "technician" },
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: addMemberSchema }),
  });
  return (
    <Form method="post" className="stack" {...getFormProps(addForm)}>
      <CsrfInput />
      <input type="hidden" name="intent" value="add" />
      <FormError errors={addForm.errors} />
      <TextField meta={addFields.name} label="Name" input={{ required: true, maxLength: 200 }} />
      <TextField meta={addFields.email} label="Email" type="email" input={{ required: true }} />
      <SelectField
        meta={addFields.role}
        label="Role"
        options={grantable.map((r) => ({ value: r, label: ROLE_LABELS[r] }))}
      />
      <div>
        <button type="submit" className="btn btn-primary">
          Add member
        </button>
      </div>
    </Form>
  );
}

/** Which of the page's forms a refused answer belongs to (a body that could not be read names none: the add form shows it). */
function replyFor(reply: FormReply | undefined) {
  const posted = (reply?.result.initialValue ?? {}) as Record<string, unknown>;
  return {
    intent: typeof posted.intent === "string" ? posted.intent : undefined,
    userId: typeof posted.userId === "string" ? posted.userId : undefined,
  };
}

const ROLE_HELP: Record<Role, string> = {
  owner: "Everything, including billing and other owners.",
  admin: "Everything but billing; manages the team and settings.",
  office: "Customers, jobs, quotes, invoices, requests, imports and portal links.",
  technician: "Only the jobs assigned to them, in the field app.",
};

export default function TeamPage() {
  const { members, me, timeZone, canImport } = useLoaderData<typeof loader>();
  const reply = useActionData<FormReply>();
  const posted = replyFor(reply);
  const roleFailed = reply && posted.intent !== undefined && posted.intent !== "add" ? reply.result : undefined;
  const grantable = ROLES.filter((r) => r !== "owner" || me.role === "owner");
  // Keyed by the location: after a member is added (a redirect, a new location) the form starts empty.
  const addKey = useLocation().key;
  return (
    <>
      <PageHeader
        title="Team"
        description="Who works here, what each role may do, and invite links for members who have no password yet."
        actions={
          canImport ? (
            <Link to="/import-data?type=team" className="btn btn-secondary">
              Import team
            </Link>
          ) : null
        }
      />
      <FormError errors={roleFailed ? Object.values(roleFailed.error ?? {}).flatMap((e) => e ?? []) : undefined} />
      <div className="table-wrap">
        <table>
          <thead>
            <tr>
              <th>Member</th>
              <th>Role</th>
              <th>Sign-in</th>
            </tr>
          </thead>
          <tbody>
            {members.map((m) => {
              const locked = m.role === "owner" && me.role !== "owner";
              return (
                <tr key={m.id} className={roleFailed && posted.userId === m.id ? "row-error" : undefined}>
                  <td>
                    <strong>{m.name}</strong>
                    {m.id === me.id ? <span className="badge badge-muted">You</span> : null}
                    <div className="muted small">
                      {m.email}
                      {m.phone ? ` · ${m.phone}` : ""}
                    </div>
                  </td>
                  <td>
                    {locked ? (
                      <span title="Only an owner can change an owner's role.">{ROLE_LABELS[m.role]}</span>
                    ) : (
                      <Form method="post" className="inline-form" aria-label={`Role of ${m.name}`}>
                        <CsrfInput />
                        <input type="hidden" name="intent" value="role" />
                        <input type="hidden" name="userId" value={m.id} />
                        <label className="visually-hidden" htmlFor={`role-${m.id}`}>
                          Role of {m.name}
                        </label>
                        <select id={`role-${m.id}`} name="role" defaultValue={m.role}>
                          {(m.role === "owner" ? ROLES : grantable).map((r) => (
                            <option key={r} value={r}>
                              {ROLE_LABELS[r]}
                            </option>
                          ))}
                        </select>
                        <button type="submit" className="btn btn-secondary btn-sm">
                          Save
                        </button>
                      </Form>
                    )}
                  </td>
                  <td>
                    {m.has_password ? (
                      <span className="badge badge-success">Signs in with a password</span>
                    ) : (
                      <div className="invite-cell">
                        {m.invite_expires_at ? (
                          <span className="small">
                            Invite link sent, valid until <DateTime value={m.invite_expires_at} />
                          </span>
                        ) : (
                          <span className="badge badge-warning">Needs an invite</span>
                        )}
                        {locked ? null : (
                          <Form method="post" action={`/team/${m.id}/invite`}>
                            <CsrfInput />
                            <button type="submit" className="btn btn-primary btn-sm">
                              {m.invite_expires_at ? "New invite link" : "Create invite link"}
                            </button>
                          </Form>
                        )}
                      </div>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>

      <div className="grid grid-2 align-start section-gap">
        <section className="card" aria-labelledby="add-title">
          <h2 id="add-title">Add a member</h2>
          <p className="muted small">They get no password: create an invite link for them, and they choose one.</p>
          <AddMemberForm
            key={addKey}
            lastResult={reply && !roleFailed ? reply.result : undefined}
            grantable={grantable}
          />
        </section>
        <div>
          <section className="card" aria-labelledby="roles-title">
            <h2 id="roles-title">Roles</h2>
            <dl className="details">
              {ROLES.map((r) => (
                <Fragment key={r}>
                  <dt>{ROLE_LABELS[r]}</dt>
                  <dd>{ROLE_HELP[r]}</dd>
                </Fragment>
              ))}
            </dl>
            <p className="muted small section-gap">
              A role change applies from the member's next page. The last owner cannot be demoted.
            </p>
          </section>
          <section className="card" aria-labelledby="tz-title">
            <h2 id="tz-title">Time zone</h2>
            <p>
              Dates and times show in <strong>{timeZone.replace(/_/g, " ")}</strong> time.
            </p>
            <p className="small">
              <Link to="/settings/company">Change the time zone in Company settings</Link>, with the business's name,
              contact details and the defaults for quotes and invoices.
            </p>
          </section>
        </div>
      </div>
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
