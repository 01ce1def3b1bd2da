import { Form, Link, NavLink, useLocation } from "@remix-run/react";
import { useRootData } from "~/components/root-data";
import { ROLE_LABELS } from "~/utils/permissions";
import { CsrfInput } from "./csrf-input";
import { navFor } from "./nav";

/** The one layout: sidebar navigation by permission, a header with the tenant and the user. */
export function AppShell({ children }: { children: React.ReactNode }) {
  const data = useRootData();
  const user = data?.user;
  const location = useLocation();
  // The portal (the hub, and the form routes' answers) and invite pages stand alone, even for a
  // signed-in member of staff.
  const path = location.pathname;
  if (!user || path.startsWith("/portal/") || path.startsWith("/api/portal/") || path.startsWith("/invite/")) {
    return <div className="public-shell">{children}</div>;
  }
  const sections = navFor(user.role, user.permissions);
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <aside className="sidebar" aria-label="Main navigation">
        <Link to="/" className="brand">
          <span className="brand-mark" aria-hidden="true">
            F
          </span>
          <span>Fieldwork</span>
        </Link>
        <NavSections sections={sections} />
      </aside>
      <div className="main-column">
        <header className="topbar">
          {/* On a phone the sidebar gives way to this menu: a disclosure that works without JavaScript. */}
          <details className="phone-menu">
            <summary>Menu</summary>
            <NavSections sections={sections} />
          </details>
          <div className="tenant-name">{user.tenantName}</div>
          <div className="user-menu">
            <span className="user-name">
              {user.name} <span className="badge badge-muted">{ROLE_LABELS[user.role]}</span>
            </span>
            <Form method="post" action="/logout">
              <CsrfInput />
              <button type="submit" className="btn btn-ghost btn-sm">
                Sign out
              </button>
            </Form>
          </div>
        </header>
        <main id="main" className="content">
          {data?.flash?.message ? (
            <div className={`alert alert-${data.flash.tone ?? "success"}`} role="status">
              {data.flash.message}
            </div>
          ) : null}
          {children}
        </main>
      </div>
    </div>
  );
}

/** The navigation's sections, in the sidebar and in the phone menu. */
function NavSections({ sections }: { sections: ReturnType<typeof navFor> }) {
  return (
    <nav>
      {sections.map((section) => (
        <div key={section.title} className="nav-section">
          <h2 className="nav-title">{section.title}</h2>
          <ul>
            {section.items.map((item) => (
              <li key={item.to + item.label}>
                <NavLink to={item.to} end={item.to === "/"} prefetch="intent">
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </nav>
  );
}

/** A page title row with optional actions on the right. */
export function PageHeader({
  title,
  description,
  actions,
}: {
  title: string;
  description?: React.ReactNode;
  actions?: React.ReactNode;
}) {
  return (
    <div className="page-header">
      <div>
        <h1>{title}</h1>
        {description ? <p className="muted">{description}</p> : null}
      </div>
      {actions ? <div className="page-actions">{actions}</div> : null}
    </div>
  );
}

/** What to do when a list is empty. */
export function EmptyState({ title, children }: { title: string; children?: React.ReactNode }) {
  return (
    <div className="empty-state">
      <h2>{title}</h2>
      {children}
    </div>
  );
}
