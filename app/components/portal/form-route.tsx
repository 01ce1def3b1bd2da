import type { LinksFunction, MetaFunction } from "@remix-run/node";
import type { ShouldRevalidateFunction } from "@remix-run/react";
import { portalHeaders } from "~/utils/route-headers";
import styles from "~/styles/portal.css";
import { PortalErrorPage } from "./error-page";
import { PortalFormPage } from "./form-page";

// The exports the three /api/portal/* form routes share (their loader and action stay in
// the route files: they are server code).
export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];
export const headers = portalHeaders;
export const meta: MetaFunction = () => [{ title: "Customer portal" }, { name: "robots", content: "noindex" }];
// This page only exists as the answer to a form post; there is nothing to reload.
export const shouldRevalidate: ShouldRevalidateFunction = () => false;
export const ErrorBoundary = PortalErrorPage;
export default PortalFormPage;
