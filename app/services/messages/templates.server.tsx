// E-mails in the business's name (docs/decisions/142): one layout, rendered with React on the
// server to HTML (inline styles only: mail programs drop <style> and scripts), and the same
// content as plain text. The one image is the business's logo on top, by its public address
// (docs/decisions/420-company-logo.md); the business's name stays as text under it, so every
// message reads the same with images off.
import { renderToStaticMarkup } from "react-dom/server";
import type { EmailLogo } from "~/services/company/logo.server";

/** The business a message speaks for: its name, contact details and colour (company settings). */
export type Business = {
  name: string;
  email: string | null;
  phone: string | null;
  address: string | null;
  color: string;
  /** The logo (its absolute URL, GET /logos/<tenant>/<id>, and its size), or none: the name alone heads the message. */
  logo?: EmailLogo | null;
};

export type EmailContent = {
  business: Business;
  /** The line a mail program shows beside the subject. */
  preview: string;
  greeting: string;
  paragraphs: string[];
  /** The one button (and the same link written out, for text and for readers without buttons). */
  action?: { label: string; url: string };
  /** Label / value rows: the document's number, total, balance... */
  facts?: Array<[string, string]>;
  /** After the sign-off, small: why they get this, how to stop reminders. */
  footer?: string;
  unsubscribeUrl?: string;
};

const INK = "#111827";
const MUTED = "#4b5563";

function EmailHtml({ c }: { c: EmailContent }) {
  const contact = [c.business.phone, c.business.email, c.business.address].filter(Boolean).join(" · ");
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{c.preview}</title>
      </head>
      <body
        style={{ margin: 0, padding: 0, background: "#f3f4f6", color: INK, fontFamily: "Helvetica, Arial, sans-serif" }}
      >
        <div style={{ display: "none", maxHeight: 0, overflow: "hidden" }}>{c.preview}</div>
        <table
          role="presentation"
          width="100%"
          cellPadding={0}
          cellSpacing={0}
          style={{ background: "#f3f4f6", padding: "24px 0" }}
        >
          <tbody>
            <tr>
              <td align="center">
                <table
                  role="presentation"
                  width="100%"
                  cellPadding={0}
                  cellSpacing={0}
                  style={{
                    maxWidth: 560,
                    background: "#ffffff",
                    borderRadius: 8,
                    borderTop: `6px solid ${c.business.color}`,
                  }}
                >
                  <tbody>
                    {c.business.logo ? (
                      <tr>
                        <td style={{ padding: "24px 28px 0" }}>
                          {/* Width and height as attributes too: some mail programs read only those. */}
                          <img
                            src={c.business.logo.url}
                            alt={`${c.business.name} logo`}
                            width={c.business.logo.width}
                            height={c.business.logo.height}
                            style={{
                              display: "block",
                              width: c.business.logo.width,
                              height: c.business.logo.height,
                              border: 0,
                            }}
                          />
                        </td>
                      </tr>
                    ) : null}
                    <tr>
                      <td style={{ padding: "24px 28px 8px", fontSize: 20, fontWeight: 700, color: c.business.color }}>
                        {c.business.name}
                      </td>
                    </tr>
                    <tr>
                      <td style={{ padding: "8px 28px", fontSize: 16, lineHeight: "24px" }}>
                        <p style={{ margin: "0 0 16px" }}>{c.greeting}</p>
                        {c.paragraphs.map((p, i) => (
                          <p key={i} style={{ margin: "0 0 16px" }}>
                            {p}
                          </p>
                        ))}
                        {c.facts?.length ? (
                          <table
                            role="presentation"
                            cellPadding={0}
                            cellSpacing={0}
                            style={{ margin: "0 0 20px", borderCollapse: "collapse" }}
                          >
                            <tbody>
                              {c.facts.map(([label, value]) => (
                                <tr key={label}>
                                  <td style={{ padding: "4px 16px 4px 0", color: MUTED }}>{label}</td>
                                  <td style={{ padding: "4px 0", fontWeight: 700 }}>{value}</td>
                                </tr>
                              ))}
                            </tbody>
                          </table>
                        ) : null}
                        {c.action ? (
                          <>
                            <p style={{ margin: "0 0 12px" }}>
                              <a
                                href={c.action.url}
                                style={{
                                  display: "inline-block",
                                  background: c.business.color,
                                  color: "#ffffff",
                                  padding: "12px 20px",
                                  borderRadius: 6,
                                  textDecoration: "none",
                                  fontWeight: 700,
                                }}
                              >
                                {c.action.label}
                              </a>
                            </p>
                            <p style={{ margin: "0 0 16px", fontSize: 13, color: MUTED, wordBreak: "break-all" }}>
                              Or open this link:{" "}
                              <a href={c.action.url} style={{ color: c.business.color }}>
                                {c.action.url}
                              </a>
                            </p>
                          </>
                        ) : null}
                        <p style={{ margin: "0 0 4px" }}>Thank you,</p>
                        <p style={{ margin: "0 0 16px", fontWeight: 700 }}>{c.business.name}</p>
                      </td>
                    </tr>
                    <tr>
                      <td
                        style={{
                          padding: "12px 28px 24px",
                          fontSize: 12,
                          lineHeight: "18px",
                          color: MUTED,
                          borderTop: "1px solid #e5e7eb",
                        }}
                      >
                        {contact ? <p style={{ margin: "0 0 6px" }}>{contact}</p> : null}
                        {c.footer ? <p style={{ margin: "0 0 6px" }}>{c.footer}</p> : null}
                        {c.unsubscribeUrl ? (
                          <p style={{ margin: 0 }}>
                            <a href={c.unsubscribeUrl} style={{ color: MUTED }}>
                              Stop automatic reminders
                            </a>
                          </p>
                        ) : null}
                      </td>
                    </tr>
                  </tbody>
                </table>
              </td>
            </tr>
          </tbody>
        </table>
      </body>
    </html>
  );
}

function emailText(c: EmailContent): string {
  const contact = [c.business.phone, c.business.email, c.business.address].filter(Boolean).join(" · ");
  const width = Math.max(0, ...(c.facts ?? []).map(([l]) => l.length));
  return [
    c.greeting,
    "",
    ...c.paragraphs.flatMap((p) => [p, ""]),
    ...(c.facts?.length ? [...c.facts.map(([l, v]) => `${`${l}:`.padEnd(width + 2)}${v}`), ""] : []),
    ...(c.action ? [`${c.action.label}:`, c.action.url, ""] : []),
    "Thank you,",
    c.business.name,
    ...(contact || c.footer || c.unsubscribeUrl ? ["", "--"] : []),
    ...(contact ? [contact] : []),
    ...(c.footer ? [c.footer] : []),
    ...(c.unsubscribeUrl ? [`Stop automatic reminders: ${c.unsubscribeUrl}`] : []),
  ].join("\n");
}

/** The message as HTML and as plain text (both go in every e-mail). */
export function renderEmail(c: EmailContent): { html: string; text: string } {
  return { html: `<!DOCTYPE html>${renderToStaticMarkup(<EmailHtml c={c} />)}`, text: emailText(c) };
}
