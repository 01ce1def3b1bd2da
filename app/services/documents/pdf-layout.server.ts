import PDFDocument from "pdfkit";
import { formatMoney } from "~/utils/format";

// Quotes, invoices and receipts as PDF documents customers keep, laid
// out with pdfkit. The text is real text in the standard Helvetica fonts (searchable and
// copyable; a text extractor reads it back in the tests). This module only lays out a
// PdfDocument: what goes into one is decided in documents-pdf.server.ts.

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
    tagged: false,
  });
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

  // Header: the business on the left, the document's name and number on the right.
  pdf
    .fillColor(INK)
    .font("Helvetica-Bold")
    .fontSize(18)
    .text(doc.business.name, left, MARGIN, { width: width * 0.6 });
  pdf.font("Helvetica").fontSize(9).fillColor(MUTED);
  for (const l of doc.business.lines) pdf.text(l, { width: width * 0.6 });
  const afterBusiness = pdf.y;
  pdf
    .fillColor(ACCENT)
    .font("Helvetica-Bold")
    .fontSize(22)
    .text(doc.heading.toUpperCase(), left, MARGIN, { width, align: "right" });
  pdf.fillColor(INK).font("Helvetica-Bold").fontSize(11).text(doc.number, { width, align: "right" });
  pdf.font("Helvetica").fontSize(9);
  // Facts as two right-aligned columns (pdfkit's `continued` text does not align right).
  let factY = pdf.y + 2;
  for (const [label, value] of doc.facts) {
    pdf.fillColor(MUTED).text(label, right - 230, factY, { width: 120, align: "right" });
    pdf.fillColor(INK).text(value, right - 104, factY, { width: 104, align: "right" });
    factY += 13;
  }
  let y = Math.max(afterBusiness, factY) + 18;

  // Who it is for.
  pdf.moveTo(left, y).lineTo(right, y).strokeColor(RULE).lineWidth(0.75).stroke();
  y += 10;
  pdf
    .fillColor(MUTED)
    .font("Helvetica-Bold")
    .fontSize(8)
    .text(doc.customer.heading.toUpperCase(), left, y, { characterSpacing: 0.5 });
  pdf.fillColor(INK).font("Helvetica-Bold").fontSize(11).text(doc.customer.name);
  pdf.font("Helvetica").fontSize(9).fillColor(INK);
  for (const l of doc.customer.lines) pdf.text(l);
  if (doc.title) pdf.moveDown(0.6).font("Helvetica-Bold").fontSize(12).text(doc.title, { width });
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
  const tableHeader = () => {
    pdf.rect(left, y, width, 18).fill("#f3f4f6");
    pdf.fillColor(MUTED).font("Helvetica-Bold").fontSize(8);
    pdf.text("DESCRIPTION", cols.description + 4, y + 5, { width: colWidth.description });
    pdf.text("QTY", cols.quantity, y + 5, { width: colWidth.quantity, align: "right" });
    pdf.text("UNIT PRICE", cols.price, y + 5, { width: colWidth.price, align: "right" });
    pdf.text("TAX", cols.tax, y + 5, { width: colWidth.tax, align: "right" });
    pdf.text("AMOUNT", cols.amount, y + 5, { width: colWidth.amount - 4, align: "right" });
    y += 24;
  };
  if (doc.lines.length) {
    tableHeader();
    for (const line of doc.lines) {
      pdf.font("Helvetica").fontSize(9.5);
      const descHeight = pdf.heightOfString(line.description, { width: colWidth.description - 4 });
      const noteHeight = line.note
        ? pdf.fontSize(8).heightOfString(line.note, { width: colWidth.description - 4 }) + 2
        : 0;
      const rowHeight = Math.max(descHeight + noteHeight, 12) + 8;
      if (y + rowHeight > bottom()) {
        pdf.addPage();
        y = MARGIN;
        tableHeader();
      }
      pdf
        .fillColor(INK)
        .font("Helvetica")
        .fontSize(9.5)
        .text(line.description, cols.description + 4, y, { width: colWidth.description - 4 });
      if (line.note)
        pdf
          .fillColor(MUTED)
          .fontSize(8)
          .text(line.note, cols.description + 4, y + descHeight + 2, { width: colWidth.description - 4 });
      pdf.fillColor(INK).fontSize(9.5);
      pdf.text(line.quantity, cols.quantity, y, { width: colWidth.quantity, align: "right" });
      pdf.text(money(line.unitPriceCents), cols.price, y, { width: colWidth.price, align: "right" });
      pdf.text(Number(line.taxRate) ? `${line.taxRate}%` : "–", cols.tax, y, { width: colWidth.tax, align: "right" });
      pdf.text(money(line.amountCents), cols.amount, y, { width: colWidth.amount - 4, align: "right" });
      y += rowHeight;
      pdf
        .moveTo(left, y - 4)
        .lineTo(right, y - 4)
        .strokeColor("#e5e7eb")
        .lineWidth(0.5)
        .stroke();
    }
  }

  // Totals, right-aligned.
  const totalsHeight = doc.totals.length * 16 + 10;
  if (y + totalsHeight > bottom()) {
    pdf.addPage();
    y = MARGIN;
  }
  y += 6;
  for (const t of doc.totals) {
    pdf
      .fillColor(t.strong ? INK : MUTED)
      .font(t.strong ? "Helvetica-Bold" : "Helvetica")
      .fontSize(t.strong ? 12 : 9.5);
    pdf.text(t.label, cols.price - 40, y, { width: colWidth.price + colWidth.tax + 40, align: "right" });
    pdf.fillColor(INK).text(money(t.cents), cols.amount, y, { width: colWidth.amount - 4, align: "right" });
    y += t.strong ? 20 : 15;
  }

  // Payments received (invoices and receipts).
  if (doc.payments?.length) {
    y += 12;
    if (y + 40 > bottom()) {
      pdf.addPage();
      y = MARGIN;
    }
    pdf.fillColor(INK).font("Helvetica-Bold").fontSize(10.5).text("Payments", left, y);
    y = pdf.y + 4;
    for (const p of doc.payments) {
      if (y + 16 > bottom()) {
        pdf.addPage();
        y = MARGIN;
      }
      pdf.font("Helvetica").fontSize(9.5).fillColor(INK);
      pdf.text(p.date, left, y, { width: width * 0.25 });
      pdf.text(p.method, left + width * 0.25, y, { width: width * 0.2 });
      pdf.fillColor(MUTED).text(p.reference, left + width * 0.45, y, { width: width * 0.35 });
      pdf.fillColor(INK).text(money(p.amountCents), cols.amount, y, { width: colWidth.amount - 4, align: "right" });
      y += 16;
    }
  }

  // Approval record, notes, terms.
  pdf.x = left;
  pdf.y = y + 10;
  for (const p of doc.paragraphs) {
    if (pdf.y + 40 > bottom()) pdf.addPage();
    pdf.fillColor(INK).font("Helvetica-Bold").fontSize(10).text(p.heading, left, pdf.y, { width });
    pdf.font("Helvetica").fontSize(9.5).fillColor(INK).text(p.text, { width });
    pdf.moveDown(0.8);
  }

  if (doc.signature) {
    const sig = doc.signature;
    if (pdf.y + 130 > bottom()) pdf.addPage();
    pdf.fillColor(INK).font("Helvetica-Bold").fontSize(10).text("Customer signature", left, pdf.y, { width });
    const top = pdf.y + 4;
    if (sig.image) {
      pdf.image(sig.image, left, top, { fit: [220, 80] });
      pdf.y = top + 84;
    } else {
      pdf.font("Helvetica-Oblique").fontSize(16).fillColor(INK).text(sig.name, left, top, { width });
    }
    pdf
      .moveTo(left, pdf.y)
      .lineTo(left + 220, pdf.y)
      .strokeColor(RULE)
      .stroke();
    pdf
      .font("Helvetica")
      .fontSize(9)
      .fillColor(MUTED)
      .text(sig.caption, left, pdf.y + 4, { width });
    pdf.moveDown(0.8);
  }

  // Footer and page numbers on every page.
  const range = pdf.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    pdf.switchToPage(i);
    // Below the bottom margin: without this pdfkit would start a new page for the footer.
    pdf.page.margins.bottom = 0;
    const footY = pdf.page.height - MARGIN + 10;
    pdf.font("Helvetica").fontSize(8).fillColor(MUTED);
    pdf.text(doc.footer, left, footY, { width: width * 0.8, lineBreak: false, height: 10 });
    pdf.text(`Page ${i - range.start + 1} of ${range.count}`, left, footY, {
      width,
      align: "right",
      lineBreak: false,
      height: 10,
    });
  }
  pdf.end();
  return done;
}
