import { isRouteErrorResponse, useRouteError } from "@remix-run/react";
import { PortalFrame } from "./hub";

const PAGES: Record<number, { title: string; text: string }> = {
  400: { title: "That form could not be read", text: "Please go back to your portal page and send it again." },
  404: {
    title: "This link is no longer valid",
    text: "Check that you opened the whole link from your email or text message. If it still does not open, ask the business that sent it for a new link.",
  },
  405: {
    title: "Open your portal link",
    text: "This address only receives the forms of your portal page. Open the link the business sent you.",
  },
  410: {
    title: "This link is no longer valid",
    text: "It has expired or was turned off. Please ask the business that sent it for a new link.",
  },
  413: { title: "That form was too large", text: "Please go back, shorten what you typed and send it again." },
  429: {
    title: "Too many attempts",
    text: "Too many links that do not work were opened from your network. Please wait a few minutes and try again.",
  },
};

/** The portal's error pages: no sign-in, no app navigation, just what happened and what to do. */
export function PortalErrorPage() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const page = PAGES[status] ?? {
    title: "Something went wrong",
    text: "An unexpected error happened on our side. Please try again in a moment.",
  };
  const detail =
    isRouteErrorResponse(error) && status < 500 && typeof error.data?.message === "string" ? error.data.message : null;
  return (
    <PortalFrame business={null}>
      <section className="portal-card portal-error" aria-labelledby="portal-error-title">
        <p className="portal-kicker">Error {status}</p>
        <h1 id="portal-error-title">{page.title}</h1>
        <p>{detail ?? page.text}</p>
        {status === 410 || status === 404 ? (
          <p className="muted">For your security, portal links stop working when they expire or are replaced.</p>
        ) : null}
      </section>
    </PortalFrame>
  );
}
