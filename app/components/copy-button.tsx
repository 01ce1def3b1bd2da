import { useEffect, useState } from "react";
import { useHydrated } from "remix-utils/use-hydrated";

/** Puts text on the clipboard; falls back to a hidden textarea where the Clipboard API is missing (plain http). */
async function copyText(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) {
    try {
      return await navigator.clipboard.writeText(text);
    } catch {
      /* denied: try the old way */
    }
  }
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.appendChild(area);
  area.select();
  const done = document.execCommand("copy");
  area.remove();
  if (!done) throw new Error("copy refused");
}

/**
 * A "Copy" button, rendered only once JavaScript runs (without it there is nothing it could
 * do); it says whether the copy worked.
 */
export function CopyButton({ text, label = "Copy" }: { text: string; label?: string }) {
  const hydrated = useHydrated();
  const [status, setStatus] = useState<"idle" | "copied" | "failed">("idle");
  useEffect(() => setStatus("idle"), [text]);
  useEffect(() => {
    if (status !== "copied") return;
    const timer = setTimeout(() => setStatus("idle"), 2500);
    return () => clearTimeout(timer);
  }, [status]);
  if (!hydrated) return null;
  return (
    <>
      <button
        type="button"
        className="btn btn-secondary btn-sm"
        onClick={() =>
          copyText(text).then(
            () => setStatus("copied"),
            () => setStatus("failed"),
          )
        }
      >
        {status === "copied" ? "Copied" : status === "failed" ? "Copy failed" : label}
      </button>
      <span className="visually-hidden" role="status" aria-live="polite">
        {status === "copied"
          ? "Copied to the clipboard."
          : status === "failed"
            ? "Could not copy; select the text and copy it by hand."
            : ""}
      </span>
    </>
  );
}

/** A "Print" button (JavaScript only; without it the browser's own print works the same). */
export function PrintButton({ label = "Print" }: { label?: string }) {
  const hydrated = useHydrated();
  if (!hydrated) return null;
  return (
    <button type="button" className="btn btn-secondary btn-sm" onClick={() => window.print()}>
      {label}
    </button>
  );
}
