import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { PortalErrorPage } from "~/components/portal/error-page";
import { PortalHub } from "~/components/portal/hub";
import { portalHub } from "~/http/portal.server";
import { portalHeaders } from "~/utils/route-headers";
import styles from "~/styles/portal.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];
export const headers = portalHeaders;
export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.business.name} · Your quotes and invoices` : "Customer portal" },
  { name: "robots", content: "noindex" },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  return portalHub(request, params.token ?? "");
}

export default function PortalPage() {
  return <PortalHub hub={useLoaderData<typeof loader>()} />;
}

export const ErrorBoundary = PortalErrorPage;
