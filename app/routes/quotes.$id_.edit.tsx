import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { PageHeader } from "~/components/layout";
import { QuoteForm } from "~/components/quote-form";
import { formAction } from "~/http/conform.server";
import { quoteFormWithIntents } from "~/http/line-items.server";
import { builderContext, quoteForEdit, updateQuote } from "~/services/quotes/quotes.server";
import { actorOf, requireUserWithPermission } from "~/http/auth.server";

// GET/POST /quotes/<id>/edit: draft and sent quotes only; an approved,
// declined or converted quote answers 409 and nothing changes.

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Edit quote ${data?.quote.number ?? ""} · Fieldwork` },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUserWithPermission(request, "manage_records");
  const actor = actorOf(user);
  const quote = await quoteForEdit(actor, params.id!);
  return json({ quote, context: await builderContext(actor) });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUserWithPermission(request, "manage_records");
  const actor = actorOf(user);
  // Looked up first: another tenant's id is the 404 page, an approved quote the 409 page.
  const { id } = await quoteForEdit(actor, params.id!);
  const context = await builderContext(actor);
  return formAction(request, quoteFormWithIntents(context.priceBook), async (value) => {
    await updateQuote(actor, id, value);
    return redirect(`/quotes/${id}`, 303);
  });
}

export default function EditQuotePage() {
  const { quote, context } = useLoaderData<typeof loader>();
  return (
    <>
      <PageHeader
        title={`Edit quote ${quote.number}`}
        description={
          <>
            For <Link to={`/customers/${quote.customer.id}`}>{quote.customer.name}</Link>
            {quote.status === "sent" ? ". Already sent: the customer sees the changes in their portal." : "."}
          </>
        }
      />
      <section className="card">
        <QuoteForm
          id={`quote-${quote.id}`}
          context={context}
          customer={quote.customer}
          properties={quote.properties}
          defaultValue={quote.values}
          submit="Save changes"
          cancelTo={`/quotes/${quote.id}`}
        />
      </section>
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
