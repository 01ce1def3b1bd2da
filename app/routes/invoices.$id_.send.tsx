import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { SendConfirm } from "~/components/send-confirm";
import { readStaffForm } from "~/http/conform.server";
import { mailMode } from "~/services/messages/config.server";
import { sendInvoice, invoiceSendPreview } from "~/services/invoices/invoices.server";
import { actorOf, requireUserWithPermission } from "~/http/auth.server";

// GET /invoices/<id>/send: the message before it goes (recipient, subject, text), or the
// question before a resend. POST: a draft is sent; a sent invoice is e-mailed again only with
// `resend` (the resend page's button), else back to that question: a form posted twice sends once.

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Send invoice ${data?.doc.number ?? ""} · Fieldwork` },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUserWithPermission(request, "manage_records");
  const doc = await invoiceSendPreview(actorOf(user), params.id!);
  return json({ doc, mailOff: mailMode() === "off" });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUserWithPermission(request, "manage_records");
  const form = await readStaffForm(request);
  const { sent } = await sendInvoice(actorOf(user), params.id!, { resend: form.get("resend") === "1" });
  if (!sent) return redirect(`/invoices/${params.id}/send`, 303);
  return redirect(`/invoices/${params.id}?sent=1#share`, 303);
}

export default function SendInvoicePage() {
  const { doc, mailOff } = useLoaderData<typeof loader>();
  return <SendConfirm kind="invoice" doc={doc} backTo={`/invoices/${doc.id}`} mailOff={mailOff} />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
