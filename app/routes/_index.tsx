import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { PageHeader } from "~/components/layout";
import { dashboardCounts } from "~/services/dashboard/dashboard.server";
import { requireUser } from "~/utils/auth.server";
import { can } from "~/utils/permissions";

export const meta: MetaFunction = () => [{ title: "Dashboard · Fieldwork" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  // Roles without the dashboard land on their own start page: a technician, their day.
  if (!can(user.role, "view_dashboard")) throw redirect(user.role === "technician" ? "/field" : "/ai-assistant");
  return json({ name: user.name, counts: await dashboardCounts(user.tenantId) });
}

export default function Dashboard() {
  const { name, counts } = useLoaderData<typeof loader>();
  const stats = [
    { label: "Customers", value: counts.customers, to: "/customers" },
    { label: "Open jobs", value: counts.openJobs, to: "/jobs?status=open" },
    { label: "Quotes awaiting response", value: counts.quotesAwaiting, to: "/quotes?status=sent" },
    { label: "Unpaid total", value: counts.unpaidTotal, to: "/invoices?status=unpaid" },
    { label: "New booking requests", value: counts.newRequests, to: "/requests?status=new" },
  ];
  return (
    <>
      <PageHeader title={`Welcome, ${name.split(" ")[0]}`} description="Here is where your business stands today." />
      <div className="grid grid-3">
        {stats.map((s) => (
          <Link key={s.label} to={s.to} className="stat">
            <div className="stat-label">{s.label}</div>
            <div className="stat-value">{s.value}</div>
          </Link>
        ))}
      </div>
    </>
  );
}
