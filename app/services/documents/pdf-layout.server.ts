import PDFDocument from "pdfkit";
import { formatMoney } from "~/utils/format";
import { LOGO_BOX } from "~/services/company/logo-rules";
import { fontRuns, registerFonts, type FontStyle } from "./pdf-fonts.server";

// Quotes, invoices and receipts as PDF documents customers keep, laid out with pdfkit. The text
// is real text in embedded Unicode fonts (Noto Sans, Noto Sans SC for what it lacks:
// pdf-fonts.server.ts), searchable and copyable in any script; a text extractor reads it back in
// the tests. The PDF is tagged: headings, paragraphs and the line items as a table in reading
// order, rules, shading and page numbers as artifacts, so a screen reader reads it
// (docs/decisions/235-pdf-fonts-and-tags.md). This module only lays out a PdfDocument: what goes
// into one is decided in documents-pdf.server.ts.

export type Paper = "A4" | "LETTER";

export type PdfLine = {
  description: string;
  /** Under the description, smaller: "Option: Better", "Optional, not chosen". */
  note?: string;
  quantity: string;
  unitPriceCents: number;
  taxRate: string;
  amountCents: number;
};

export type PdfPayment = { date: string; method: string; reference: string; amountCents: number };

export type PdfDocument = {
  heading: "Quote" | "Invoice" | "Receipt";
  paper: Paper;
  business: { name: string; lines: string[] };
  /** The business's logo (PNG or JPEG bytes), drawn at the top left, scaled to fit its box; none: the name alone. */
  logo?: Buffer | null;
  customer: { heading: string; name: string; lines: string[] };
  number: string;
  title?: string | null;
  /** Label and value pairs under the number: dates, status. */
  facts: Array<[string, string]>;
  currency: string;
  lines: PdfLine[];
  /** Subtotal, tax, total, paid, balance: the last flagged `strong` is printed large. */
  totals: Array<{ label: string; cents: number; strong?: boolean }>;
  payments?: PdfPayment[];
  /** Short paragraphs after the totals: approval record, notes, terms. */
  paragraphs: Array<{ heading: string; text: string }>;
  /** The customer's signature on the job an invoice was made from: a drawn PNG or a typed name. */
  signature?: { image: Buffer | null; name: string; caption: string } | null;
  footer: string;
};

const INK = "#111827";
const MUTED = "#4b5563";
const RULE = "#d1d5db";
const ACCENT = "#1d4ed8";
const MARGIN = 50;

/** Countries that print on US Letter; everyone else uses A4 (ISO 216). */
const LETTER_COUNTRIES = new Set(["US", "CA", "MX", "PH", "CL", "CO", "VE", "GT", "DO", "CR", "PA", "SV", "BZ", "PR"]);
export function paperFor(country: string | null | undefined): Paper {
  const c = (country ?? "").trim().toUpperCase();
  if (["USA", "UNITED STATES", "UNITED STATES OF AMERICA", "CANADA", "MEXICO"].includes(c)) return "LETTER";
  return !c || LETTER_COUNTRIES.has(c) ? "LETTER" : "A4";
}

export function renderPdf(doc: PdfDocument): Promise<Buffer> {
  const pdf = new PDFDocument({
    size: doc.paper,
    margins: { top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN },
    bufferPages: true,
    info: {
      Title: `${doc.heading} ${doc.number}`,
      Author: doc.business.name,
      Subject: `${doc.heading} ${doc.number} for ${doc.customer.name}`,
      Creator: "Fieldwork",
    },
    lang: "en",
    pdfVersion: "1.7",
    tagged: true,
    displayTitle: true,
    autoFirstPage: false,
    // No default font: PDFKit would load and parse Helvetica's metrics for every document, and
    // every text here is set in the embedded fonts (registered next) before it is drawn.
    font: null as unknown as string,
  });
  registerFonts(pdf);
  pdf.addPage();
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on("data", (c: Buffer) => chunks.push(c));
    pdf.on("end", () => resolve(Buffer.concat(chunks)));
    pdf.on("error", reject);
  });
  const money = (cents: number) => formatMoney(cents, doc.currency);
  const left = MARGIN;
  const right = pdf.page.width - MARGIN;
  const width = right - left;

  // --- Text in the embedded fonts, and the structure it belongs to ------------------------
  let style: FontStyle = "regular";
  let size = 9;
  const font = (s: FontStyle, points: number) => {
    style = s;
    size = points;
    pdf.fontSize(points);
  };
  /**
   * Writes `text` in the current style, each run in the font that has its characters. A text
   * of several runs that fits its line is placed by its measured width (right or centre
   * alignment included); a longer one flows left-aligned, run after run.
   */
  const write = (raw: string, x?: number, y?: number, given: PDFKit.Mixins.TextOptions = {}) => {
    const text = raw.normalize("NFC");
    const opts = given;
    const runs = fontRuns(text, style);
    if (runs.length === 1) {
      pdf.font(runs[0]!.font).fontSize(size);
      if (x === undefined) pdf.text(text, opts);
      else pdf.text(text, x, y, opts);
      return;
    }
    const measured = runs.reduce((w, r) => w + pdf.font(r.font).fontSize(size).widthOfString(r.text), 0);
    const boxWidth = opts.width ?? right - (x ?? pdf.x);
    const startX = x ?? pdf.x;
    const oneLine = measured <= boxWidth;
    const at =
      oneLine && opts.align === "right"
        ? startX + boxWidth - measured
        : oneLine && opts.align === "center"
          ? startX + (boxWidth - measured) / 2
          : startX;
    const base = { ...opts, align: "left" as const, width: oneLine ? measured + 1 : boxWidth };
    runs.forEach((r, i) => {
      pdf.font(r.font).fontSize(size);
      const o = { ...base, continued: i < runs.length - 1 };
      if (i === 0) pdf.text(r.text, at, y ?? pdf.y, o);
      else pdf.text(r.text, o);
    });
    pdf.x = startX;
  };
  /** The height `text` takes in the current style (in the fallback font when it needs one). */
  const heightOf = (text: string, opts: PDFKit.Mixins.TextOptions) => {
    const runs = fontRuns(text, style);
    const f = runs.find((r) => r.font.startsWith("CJK"))?.font ?? runs[0]?.font ?? "Sans";
    return pdf.font(f).fontSize(size).heightOfString(text, opts);
  };
  const root = pdf.struct("Document");
  pdf.addStructure(root);
  /** Content drawn by `draw` as a structure element of `type` under `parent`. */
  const tag = (parent: PDFKit.PDFStructureElement, type: string, draw: () => void, options = {}) =>
    parent.add(pdf.struct(type, options, draw));
  /** Rules, shading and page furniture: not content a reader reads out. */
  const artifact = (draw: () => void, type?: "Pagination" | "Layout") => {
    pdf.markContent("Artifact", type ? { type } : undefined);
    draw();
    pdf.endMarkedContent();
  };

  // Header: the business on the left (its logo above its name), the document's name and number
  // on the right.
  const header = pdf.struct("Sect");
  root.add(header);
  let nameTop = MARGIN;
  if (doc.logo) {
    const logo = doc.logo;
    // The logo was checked when it was stored; should it still not open, the name stands alone.
    try {
      const image = (pdf as unknown as { openImage(src: Buffer): { width: number; height: number } }).openImage(logo);
      const scale = Math.min(LOGO_BOX.width / image.width, LOGO_BOX.height / image.height);
      const drawn = image.height * scale;
      tag(header, "Figure", () => pdf.image(logo, left, MARGIN, { fit: [LOGO_BOX.width, LOGO_BOX.height] }), {
        alt: `${doc.business.name} logo`,
      });
      nameTop = MARGIN + drawn + 10;
    } catch {
      nameTop = MARGIN;
    }
  }
  tag(header, "H1", () => {
    pdf.fillColor(INK);
    font("bold", 18);
    write(doc.business.name, left, nameTop, { width: width * 0.6 });
  });
  font("regular", 9);
  pdf.fillColor(MUTED);
  for (const l of doc.business.lines) tag(header, "P", () => write(l, undefined, undefined, { width: width * 0.6 }));
  const afterBusiness = pdf.y;
  tag(header, "H2", () => {
    pdf.fillColor(ACCENT);
    font("bold", 22);
    write(doc.heading.toUpperCase(), left, MARGIN, { width, align: "right" });
    pdf.fillColor(INK);
    font("bold", 11);
    write(doc.number, undefined, undefined, { width, align: "right" });
  });
  font("regular", 9);
  // Facts as two right-aligned columns (pdfkit's `continued` text does not align right).
  let factY = pdf.y + 2;
  for (const [label, value] of doc.facts) {
    tag(header, "P", () => {
      pdf.fillColor(MUTED);
      write(label, right - 230, factY, { width: 120, align: "right" });
      pdf.fillColor(INK);
      write(value, right - 104, factY, { width: 104, align: "right" });
    });
    factY += 13;
  }
  let y = Math.max(afterBusiness, factY) + 18;

  // Who it is for.
  const rule = (at: number, color = RULE, lineWidth = 0.75) =>
    artifact(() => pdf.moveTo(left, at).lineTo(right, at).strokeColor(color).lineWidth(lineWidth).stroke());
  rule(y);
  y += 10;
  const customer = pdf.struct("Sect");
  root.add(customer);
  tag(customer, "H3", () => {
    pdf.fillColor(MUTED);
    font("bold", 8);
    write(doc.customer.heading.toUpperCase(), left, y, { characterSpacing: 0.5 });
  });
  tag(customer, "P", () => {
    pdf.fillColor(INK);
    font("bold", 11);
    write(doc.customer.name, left);
  });
  font("regular", 9);
  pdf.fillColor(INK);
  for (const l of doc.customer.lines) tag(customer, "P", () => write(l, left));
  if (doc.title)
    tag(customer, "H3", () => {
      pdf.moveDown(0.6);
      font("bold", 12);
      write(doc.title!, left, pdf.y, { width });
    });
  y = pdf.y + 14;

  // Line items, with the header repeated on each new page.
  const cols = {
    description: left,
    quantity: left + width * 0.52,
    price: left + width * 0.6,
    tax: left + width * 0.76,
    amount: left + width * 0.84,
  };
  const colWidth = {
    description: width * 0.5,
    quantity: width * 0.07,
    price: width * 0.15,
    tax: width * 0.07,
    amount: width * 0.16,
  };
  const bottom = () => pdf.page.height - MARGIN - 30;
  // Created only when there are lines: pdfkit finishes the file once every element it made has ended.
  let table: PDFKit.PDFStructureElement | null = null;
  const tableHeader = (first: boolean) => {
    artifact(() => pdf.rect(left, y, width, 18).fill("#f3f4f6"));
    pdf.fillColor(MUTED);
    font("bold", 8);
    const cells: Array<[string, number, number, "left" | "right"]> = [
      ["DESCRIPTION", cols.description + 4, colWidth.description, "left"],
      ["QTY", cols.quantity, colWidth.quantity, "right"],
      ["UNIT PRICE", cols.price, colWidth.price, "right"],
      ["TAX", cols.tax, colWidth.tax, "right"],
      ["AMOUNT", cols.amount, colWidth.amount - 4, "right"],
    ];
    // The header row is part of the table once; its repeats on later pages are page furniture.
    if (first) {
      const row = pdf.struct("TR");
      table!.add(row);
      for (const [label, x, w, align] of cells)
        tag(row, "TH", () => write(label, x, y + 5, { width: w, align }), { scope: "Column" });
      row.end();
    } else artifact(() => cells.forEach(([label, x, w, align]) => write(label, x, y + 5, { width: w, align })));
    y += 24;
  };
  if (doc.lines.length) {
    table = pdf.struct("Table");
    root.add(table);
    tableHeader(true);
    for (const line of doc.lines) {
      font("regular", 9.5);
      const descHeight = heightOf(line.description, { width: colWidth.description - 4 });
      font("regular", 8);
      const noteHeight = line.note ? heightOf(line.note, { width: colWidth.description - 4 }) + 2 : 0;
      const rowHeight = Math.max(descHeight + noteHeight, 12) + 8;
      if (y + rowHeight > bottom()) {
        pdf.addPage();
        y = MARGIN;
        tableHeader(false);
      }
      const row = pdf.struct("TR");
      table.add(row);
      tag(row, "TD", () => {
        pdf.fillColor(INK);
        font("regular", 9.5);
        write(line.description, cols.description + 4, y, { width: colWidth.description - 4 });
        if (line.note) {
          pdf.fillColor(MUTED);
          font("regular", 8);
          write(line.note, cols.description + 4, y + descHeight + 2, { width: colWidth.description - 4 });
        }
      });
      pdf.fillColor(INK);
      font("regular", 9.5);
      tag(row, "TD", () => write(line.quantity, cols.quantity, y, { width: colWidth.quantity, align: "right" }));
      // A line at no price (labour of a member without a rate, a free check) says so rather than "$0.00" a unit.
      const unitPrice = line.unitPriceCents === 0 ? "No charge" : money(line.unitPriceCents);
      tag(row, "TD", () => write(unitPrice, cols.price, y, { width: colWidth.price, align: "right" }));
      tag(row, "TD", () =>
        write(Number(line.taxRate) ? `${line.taxRate}%` : "–", cols.tax, y, { width: colWidth.tax, align: "right" }),
      );
      tag(row, "TD", () =>
        write(money(line.amountCents), cols.amount, y, { width: colWidth.amount - 4, align: "right" }),
      );
      row.end();
      y += rowHeight;
      rule(y - 4, "#e5e7eb", 0.5);
    }
    table.end();
  }

  // Totals, right-aligned.
  const totalsHeight = doc.totals.length * 16 + 10;
  if (y + totalsHeight > bottom()) {
    pdf.addPage();
    y = MARGIN;
  }
  y += 6;
  const totals = pdf.struct("Sect");
  root.add(totals);
  for (const t of doc.totals) {
    tag(totals, "P", () => {
      pdf.fillColor(t.strong ? INK : MUTED);
      font(t.strong ? "bold" : "regular", t.strong ? 12 : 9.5);
      write(t.label, cols.price - 40, y, { width: colWidth.price + colWidth.tax + 40, align: "right" });
      pdf.fillColor(INK);
      write(money(t.cents), cols.amount, y, { width: colWidth.amount - 4, align: "right" });
    });
    y += t.strong ? 20 : 15;
  }
  totals.end();

  // Payments received (invoices and receipts).
  if (doc.payments?.length) {
    y += 12;
    if (y + 40 > bottom()) {
      pdf.addPage();
      y = MARGIN;
    }
    const payments = pdf.struct("Sect");
    root.add(payments);
    tag(payments, "H3", () => {
      pdf.fillColor(INK);
      font("bold", 10.5);
      write("Payments", left, y);
    });
    y = pdf.y + 4;
    for (const p of doc.payments) {
      if (y + 16 > bottom()) {
        pdf.addPage();
        y = MARGIN;
      }
      tag(payments, "P", () => {
        font("regular", 9.5);
        pdf.fillColor(INK);
        // The date names its zone ("Jan 15, 2026, 10:30 AM MST"): the widest column.
        write(p.date, left, y, { width: width * 0.31 });
        write(p.method, left + width * 0.32, y, { width: width * 0.18 });
        pdf.fillColor(MUTED);
        write(p.reference, left + width * 0.5, y, { width: width * 0.32 });
        pdf.fillColor(INK);
        write(money(p.amountCents), cols.amount, y, { width: colWidth.amount - 4, align: "right" });
      });
      y += 16;
    }
    payments.end();
  }

  // Approval record, notes, terms.
  pdf.x = left;
  pdf.y = y + 10;
  for (const p of doc.paragraphs) {
    if (pdf.y + 40 > bottom()) pdf.addPage();
    const section = pdf.struct("Sect");
    root.add(section);
    tag(section, "H3", () => {
      pdf.fillColor(INK);
      font("bold", 10);
      write(p.heading, left, pdf.y, { width });
    });
    tag(section, "P", () => {
      font("regular", 9.5);
      pdf.fillColor(INK);
      write(p.text, left, pdf.y, { width });
    });
    section.end();
    pdf.moveDown(0.8);
  }

  if (doc.signature) {
    const sig = doc.signature;
    if (pdf.y + 130 > bottom()) pdf.addPage();
    const section = pdf.struct("Sect");
    root.add(section);
    tag(section, "H3", () => {
      pdf.fillColor(INK);
      font("bold", 10);
      write("Customer signature", left, pdf.y, { width });
    });
    const top = pdf.y + 4;
    if (sig.image) {
      tag(section, "Figure", () => pdf.image(sig.image!, left, top, { fit: [220, 80] }), {
        alt: `Signature of ${sig.name}`,
      });
      pdf.y = top + 84;
    } else {
      tag(section, "P", () => {
        font("italic", 16);
        pdf.fillColor(INK);
        write(sig.name, left, top, { width });
      });
    }
    artifact(() =>
      pdf
        .moveTo(left, pdf.y)
        .lineTo(left + 220, pdf.y)
        .strokeColor(RULE)
        .stroke(),
    );
    tag(section, "P", () => {
      font("regular", 9);
      pdf.fillColor(MUTED);
      write(sig.caption, left, pdf.y + 4, { width });
    });
    section.end();
    pdf.moveDown(0.8);
  }

  // Footer and page numbers on every page.
  const range = pdf.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    pdf.switchToPage(i);
    // Below the bottom margin: without this pdfkit would start a new page for the footer.
    pdf.page.margins.bottom = 0;
    const footY = pdf.page.height - MARGIN + 10;
    font("regular", 8);
    pdf.fillColor(MUTED);
    artifact(() => {
      write(doc.footer, left, footY, { width: width * 0.8, lineBreak: false, height: 10 });
      write(`Page ${i - range.start + 1} of ${range.count}`, left, footY, {
        width,
        align: "right",
        lineBreak: false,
        height: 10,
      });
    }, "Pagination");
  }
  root.end();
  pdf.end();
  return done;
}
