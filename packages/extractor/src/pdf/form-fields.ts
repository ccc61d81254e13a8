/**
 * The filled values of a PDF form (AcroForm widgets) as text items of their page. A viewer shows them, but they are
 * annotations, not the page's content, so pdf.js's text layer leaves them out: a filled form would read as its labels
 * alone. Each value becomes a text item where its field sits, put among the page's items at its row (the row of its
 * label, in a form laid out label then field), so that the layout reads it with the text around it. A text field
 * gives its text, a list or combo box its chosen options, a check box or radio button `[x]` or `[ ]`. Hidden,
 * password, signature and push-button fields give nothing; past 1,000 annotations a page, the rest are not read.
 */
import type { TextItem } from './layout.js';

/** The parts of a pdf.js widget annotation (`page.getAnnotations()`) read here. */
export interface WidgetAnnotation {
  subtype?: string;
  fieldType?: string;
  fieldValue?: unknown;
  rect?: number[];
  hidden?: boolean;
  password?: boolean;
  checkBox?: boolean;
  radioButton?: boolean;
  exportValue?: unknown;
  buttonValue?: unknown;
  options?: { exportValue?: unknown; displayValue?: unknown }[];
  defaultAppearanceData?: { fontSize?: number };
}

/** The font name of a field's item: no style of the page's, so neither bold nor an OCR layer. */
const FIELD_FONT = 'crawlkit-form-field';
/** Type size of a field whose appearance sizes its text to fit (font size 0), at most. */
const AUTO_SIZE = 12;
/** Width of a character, in type sizes, for the item's right edge (its glyphs are not measured). */
const CHAR_WIDTH = 0.5;
/** Fields read on a page, at most: each is placed among the page's items, so a page of 100,000 would be quadratic. */
const MAX_FIELDS = 1_000;

/** The text a filled field shows, or undefined for a field left empty or not shown. */
function fieldText(field: WidgetAnnotation): string | undefined {
  if (field.subtype !== 'Widget' || field.hidden || field.password) return undefined;
  if (field.fieldType === 'Tx') {
    const text = typeof field.fieldValue === 'string' ? field.fieldValue.replace(/\s+/g, ' ').trim() : '';
    return text || undefined;
  }
  if (field.fieldType === 'Ch') {
    const chosen = (Array.isArray(field.fieldValue) ? field.fieldValue : [field.fieldValue]).filter(
      (value): value is string => typeof value === 'string' && value !== '',
    );
    const shown = chosen.map((value) => {
      const option = field.options?.find((o) => o.exportValue === value);
      return typeof option?.displayValue === 'string' ? option.displayValue : value;
    });
    return shown.length ? shown.join(', ') : undefined;
  }
  if (field.fieldType === 'Btn' && (field.checkBox || field.radioButton)) {
    const on = field.checkBox ? field.exportValue : field.buttonValue;
    return field.fieldValue !== undefined && field.fieldValue === on ? '[x]' : '[ ]';
  }
  return undefined;
}

/** A filled field as a text item on its baseline: its text set in the middle of its box's height. */
function fieldItem(field: WidgetAnnotation): TextItem | undefined {
  const text = fieldText(field);
  const [x1 = 0, y1 = 0, x2 = 0, y2 = 0] = field.rect ?? [];
  if (text === undefined || x2 === x1 || y2 === y1) return undefined;
  const [left, bottom, height] = [Math.min(x1, x2), Math.min(y1, y2), Math.abs(y2 - y1)];
  const stated = field.defaultAppearanceData?.fontSize ?? 0;
  const size = Math.min(stated > 0 ? stated : AUTO_SIZE, height);
  const baseline = bottom + (height - size) / 2 + size * 0.2;
  return {
    str: text,
    transform: [size, 0, 0, size, left + 2, baseline],
    width: text.length * size * CHAR_WIDTH,
    fontName: FIELD_FONT,
  };
}

const sizeOf = (item: TextItem): number => Math.hypot(item.transform[2] ?? 0, item.transform[3] ?? 0) || 1;
const yOf = (item: TextItem): number => item.transform[5] ?? 0;
const xOf = (item: TextItem): number => item.transform[4] ?? 0;

/**
 * The page's items with its filled fields' values among them. A value on the baseline of items of the page (its
 * label's row) goes among them by its left edge; else before the first item below it (the page drawn top down), else
 * at the end.
 */
export function withFormFields(items: TextItem[], annotations: readonly WidgetAnnotation[]): TextItem[] {
  const fields = annotations
    .slice(0, MAX_FIELDS)
    .map(fieldItem)
    .filter((item): item is TextItem => item !== undefined);
  if (fields.length === 0) return items;
  const out = [...items];
  for (const field of fields) {
    const y = yOf(field);
    const text = out.map((item, index) => ({ item, index })).filter(({ item }) => item.str.trim() !== '');
    const row = text.filter(({ item }) => Math.abs(yOf(item) - y) <= Math.max(sizeOf(item), sizeOf(field)) * 0.5);
    // the type size of its row, else of the nearest text: a field's own size, often fitted to its box, would read as
    // a heading
    const nearest =
      row[0] ??
      text.reduce<(typeof text)[number] | undefined>(
        (best, next) => (!best || Math.abs(yOf(next.item) - y) < Math.abs(yOf(best.item) - y) ? next : best),
        undefined,
      );
    const size = nearest ? sizeOf(nearest.item) : sizeOf(field);
    const placed: TextItem = {
      ...field,
      transform: [size, 0, 0, size, xOf(field), row[0] ? yOf(row[0].item) : y],
      width: field.str.length * size * CHAR_WIDTH,
    };
    const before = row.filter(({ item }) => xOf(item) <= xOf(field)).at(-1);
    const below = text.find(({ item }) => yOf(item) < y);
    const at = before ? before.index + 1 : row[0] ? row[0].index : below ? below.index : out.length;
    out.splice(at, 0, placed);
  }
  return out;
}
