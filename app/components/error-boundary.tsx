import { isRouteErrorResponse, Link, useRouteError } from "@remix-run/react";

const PAGES: Record<number, { title: string; text: string }> = {
  403: {
    title: "You don't have access to this page",
    text: "Your role does not include this part of the app. Ask an owner or admin if you need it.",
  },
  404: {
    title: "Page not found",
    text: "There is nothing at this address. It may have been moved or deleted, or the link is wrong.",
  },
  410: { title: "This link is no longer valid", text: "It has expired or was revoked." },
  429: { title: "Too many attempts", text: "Please wait a few minutes and try again." },
  503: {
    title: "The service is briefly unavailable",
    text: "We could not reach our database just now. Please try again in a moment.",
  },
};

/** The one error boundary: 403, 404 and friends as pages in the layout; anything else as a 500 without internals. */
export function GeneralErrorBoundary() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const page = PAGES[status] ?? {
    title: "Something went wrong",
    text: "An unexpected error happened on our side. Please try again; if it keeps happening, contact support.",
  };
  const detail =
    isRouteErrorResponse(error) && typeof error.data?.message === "string" && status < 500 ? error.data.message : null;
  return (
    <section className="error-page" aria-labelledby="error-title">
      <p className="error-code">{status}</p>
      <h1 id="error-title">{page.title}</h1>
      <p className="muted">{detail ?? page.text}</p>
      <p>
        <Link to="/" className="btn btn-primary">
          Go to the start page
        </Link>
      </p>
    </section>
  );
}
