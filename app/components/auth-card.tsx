import { Link } from "@remix-run/react";

export function AuthCard({
  title,
  children,
  footer,
}: {
  title: string;
  children: React.ReactNode;
  footer?: React.ReactNode;
}) {
  return (
    <div className="auth-page">
      <main className="auth-card" id="main">
        <Link to="/" className="brand">
          <span className="brand-mark" aria-hidden="true">
            F
          </span>
          <span>Fieldwork</span>
        </Link>
        <h1>{title}</h1>
        {children}
        {footer ? <div className="auth-footer">{footer}</div> : null}
      </main>
    </div>
  );
}
