import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { PageHeader } from "~/components/layout";
import { CustomerPicker } from "~/components/record-forms";
import { QuoteForm } from "~/components/quote-form";
import { formAction } from "~/http/conform.server";
import { quoteFormWithIntents } from "~/http/line-items.server";
import { emptyLine } from "~/services/documents/line-items";
import { builderContext, createQuote, quotePrefill } from "~/services/quotes/quotes.server";
import { customerListSchema, listCustomers } from "~/services/customers/customers.server";
import { actorOf, requireUserWithPermission } from "~/http/auth.server";

// GET/POST /quotes/new. Prefill: ?customerId=, ?requestId=, and repeated
// ?item= with matching ?qty= (the assistant's "start a quote"). Without a customer the page
// first asks which one (a search that works without JavaScript), keeping the other parameters.

export const meta: MetaFunction = () => [{ title: "New quote · Fieldwork" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUserWithPermission(request, "manage_records");
  const actor = actorOf(user);
  const url = new URL(request.url);
  const context = await builderContext(actor);
  const prefill = await quotePrefill(
    actor,
    {
      customerId: url.searchParams.get("customerId"),
      requestId: url.searchParams.get("requestId"),
      items: url.searchParams.getAll("item"),
      qtys: url.searchParams.getAll("qty"),
    },
    context.taxRate,
    context.taxRateId,
  );
  if (!prefill.customer) {
    const q = url.searchParams.get("q") ?? "";
    const page = await listCustomers(actor, customerListSchema.parse({ q }));
    const keep = new URLSearchParams(url.searchParams);
    keep.delete("q");
    return json({
      step: "customer" as const,
      q,
      customers: page.items.slice(0, 20),
      keep: keep.toString(),
      context,
      prefill,
    });
  }
  const change = new URLSearchParams(url.searchParams);
  change.delete("customerId");
  change.delete("requestId");
  return json({
    step: "builder" as const,
    context,
    prefill,
    changeCustomerTo: prefill.requestId ? null : `/quotes/new?${change}`,
    q: "",
    customers: [],
    keep: "",
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUserWithPermission(request, "manage_records");
  const actor = actorOf(user);
  // The builder's price book only for "Add item" without JavaScript; a plain save reads none of it.
  const priceBook = async () => (await builderContext(actor)).priceBook;
  return formAction(request, quoteFormWithIntents(priceBook), async (value) => {
    const quote = await createQuote(actor, value);
    return redirect(`/quotes/${quote.id}`, 303);
  });
}

export default function NewQuotePage() {
  const data = useLoaderData<typeof loader>();
  if (data.step === "customer") {
    const pick = (id: string) =>
      `/quotes/new?${new URLSearchParams([...new URLSearchParams(data.keep), ["customerId", id]])}`;
    return <CustomerPicker what="quote" q={data.q} customers={data.customers} pickHref={pick} keep={data.keep} />;
  }
  const { context, prefill } = data;
  const defaultValue = {
    customerId: prefill.customer!.id,
    currency: context.currency,
    validUntil: context.validUntil,
    title: prefill.values.title ?? "",
    notes: prefill.values.notes ?? "",
    ...(prefill.values.requestId ? { requestId: prefill.values.requestId } : {}),
    ...(prefill.values.propertyId ? { propertyId: prefill.values.propertyId } : {}),
    items: prefill.values.items?.length ? prefill.values.items : [emptyLine(context.taxRate, context.taxRateId)],
  };
  return (
    <>
      <PageHeader
        title="New quote"
        description={
          <>
            For <Link to={`/customers/${prefill.customer!.id}`}>{prefill.customer!.name}</Link>. Saved as a draft: send
            it when it is ready.
          </>
        }
      />
      <section className="card">
        <QuoteForm
          id="quote-new"
          action={`/quotes/new?customerId=${prefill.customer!.id}`}
          context={context}
          customer={prefill.customer!}
          properties={prefill.properties}
          defaultValue={defaultValue}
          submit="Save quote"
          cancelTo={`/customers/${prefill.customer!.id}`}
          changeCustomerTo={data.changeCustomerTo ?? undefined}
        />
      </section>
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
