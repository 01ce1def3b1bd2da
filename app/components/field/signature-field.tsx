/**
 * The customer's signature, drawn with a finger on the phone (signature_pad, a maintained
 * library: smooth strokes from pointer events, PNG out). Rendered only once the page runs
 * JavaScript; without it the completion form asks for the customer's typed name instead.
 * Imported statically: the pad must work offline, where a chunk loaded on demand could be missing.
 */
import { forwardRef, useEffect, useImperativeHandle, useRef, useState } from "react";
import SignaturePad from "signature_pad";

export type SignatureHandle = { isEmpty: () => boolean; toDataURL: () => string | null; clear: () => void };

export const SignatureField = forwardRef<SignatureHandle, { id: string; labelledBy: string }>(function SignatureField(
  { id, labelledBy },
  ref,
) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const pad = useRef<SignaturePad | null>(null);
  const [empty, setEmpty] = useState(true);

  useEffect(() => {
    const el = canvas.current;
    if (!el) return;
    const p = new SignaturePad(el, {
      penColor: "#0f172a",
      backgroundColor: "rgb(255,255,255)",
      minWidth: 0.8,
      maxWidth: 2.6,
    });
    // The canvas drawn at the screen's pixel density, so the strokes stay sharp.
    const fit = () => {
      const ratio = Math.max(window.devicePixelRatio || 1, 1);
      const data = p.toData();
      el.width = el.offsetWidth * ratio;
      el.height = el.offsetHeight * ratio;
      el.getContext("2d")!.scale(ratio, ratio);
      p.clear();
      p.fromData(data);
    };
    fit();
    window.addEventListener("resize", fit);
    p.addEventListener("endStroke", () => setEmpty(p.isEmpty()));
    pad.current = p;
    return () => {
      window.removeEventListener("resize", fit);
      p.off();
      pad.current = null;
    };
  }, []);

  useImperativeHandle(ref, () => ({
    isEmpty: () => !pad.current || pad.current.isEmpty(),
    toDataURL: () => (pad.current && !pad.current.isEmpty() ? pad.current.toDataURL("image/png") : null),
    clear: () => {
      pad.current?.clear();
      setEmpty(true);
    },
  }));

  return (
    <div className="signature-field">
      <canvas
        ref={canvas}
        id={id}
        className="signature-canvas"
        role="img"
        aria-labelledby={labelledBy}
        data-empty={empty ? "true" : "false"}
      />
      <div className="signature-foot">
        <span className="muted small">{empty ? "Ask the customer to sign above with a finger." : "Signed."}</span>
        <button
          type="button"
          className="btn btn-ghost btn-sm"
          disabled={empty}
          onClick={() => {
            pad.current?.clear();
            setEmpty(true);
          }}
        >
          Clear
        </button>
      </div>
    </div>
  );
});
