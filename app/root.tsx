import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { LiveReload, Meta, Outlet, Scripts, ScrollRestoration } from "@remix-run/react";
import { AppShell } from "~/components/layout";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { useNonce } from "~/components/nonce";
import { PageLinks } from "~/components/page-links";
import { csrfToken } from "~/http/csrf.server";
import { getCurrentUser } from "~/http/auth.server";
import { clearFlashKeys } from "~/services/accounts/sessions.server";
import styles from "~/styles/app.css";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: styles },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export const meta: MetaFunction = () => [{ title: "Fieldwork" }];

// The customer portal authenticates by its token and its forms carry no CSRF token, so its
// pages mint no pre-login CSRF cookie either.
const NO_CSRF = { token: "", setCookie: undefined };
const isPortal = (request: Request) => new URL(request.url).pathname.startsWith("/portal/");

export async function loader({ request }: LoaderFunctionArgs) {
  const [user, csrf] = await Promise.all([getCurrentUser(request), isPortal(request) ? NO_CSRF : csrfToken(request)]);
  const flash = user?.flash ?? null;
  // The layout shows (and so takes) only its one-line message; pages take their own keys.
  if (user && flash && ("message" in flash || "tone" in flash)) await clearFlashKeys(user, ["message", "tone"]);
  return json(
    {
      csrf: csrf.token,
      // Only the layout's one-line message goes to the browser; pages read their own flash keys.
      flash:
        typeof flash?.message === "string"
          ? { message: flash.message, tone: flash.tone === "error" ? ("error" as const) : ("success" as const) }
          : null,
      user: user && {
        name: user.name,
        email: user.email,
        role: user.role,
        tenantName: user.tenantName,
        timeZone: user.timeZone,
        permissions: user.permissions,
      },
    },
    { headers: csrf.setCookie ? { "Set-Cookie": csrf.setCookie } : {} },
  );
}

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        {/* Remix's <Links />, with the first answer's stylesheets inline (app/components/page-links.tsx). */}
        <PageLinks />
      </head>
      <body>
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
        {/* `npm run dev` only: reloads the page when the code changes (renders nothing in a production build). */}
        <LiveReload nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return (
    <AppShell>
      <Outlet />
    </AppShell>
  );
}

export function ErrorBoundary() {
  return (
    <AppShell>
      <GeneralErrorBoundary />
    </AppShell>
  );
}
