// Declared once, in a module with no imports: the model and the browser's form schema share it.
export const PRICE_BOOK_KINDS = ["service", "product"] as const;
export type PriceBookKind = (typeof PRICE_BOOK_KINDS)[number];
