/**
 * A product page's name, brand, category, description, and per variant its price, currency, sale, availability, SKU
 * and images, read from the structured data the page declares (JSON-LD first, then microdata, then OpenGraph
 * `product:` tags), with no model. Fields one source lacks are filled from the next.
 */
import type { ProductPrice, ProductProfile, ProductVariant } from '../v2/types.js';
import { amountOf } from './amount.js';
import { findTyped, isObject, list, resolve, schemaName, text } from './json-ld-values.js';
import { readStructuredData, type JsonObject, type StructuredData } from './structured-data.js';

const PRODUCT_TYPES =
  /^(?:https?:\/\/schema\.org\/)?(?:Product|ProductGroup|IndividualProduct|ProductModel|Vehicle|Car)$/i;
/** schema.org availabilities that mean the item can be bought now. */
const IN_STOCK = /^(?:InStock|InStoreOnly|OnlineOnly|LimitedAvailability|in ?stock|available)$/i;

type Image = { url: string; alt?: string };

function imagesOf(value: unknown, base: string): Image[] {
  const images: Image[] = [];
  for (const entry of list(value)) {
    const url = typeof entry === 'string' ? entry : isObject(entry) ? text(entry.url ?? entry.contentUrl) : undefined;
    if (!url) continue;
    const alt = isObject(entry) ? text(entry.caption ?? entry.name) : undefined;
    images.push({ url: resolve(url, base), ...(alt ? { alt } : {}) });
  }
  return images;
}

function priceOf(amountValue: unknown, currencyValue: unknown): ProductPrice | undefined {
  const amount = amountOf(amountValue);
  if (amount === undefined) return undefined;
  const currency = text(currencyValue)?.toUpperCase();
  const price: ProductPrice = { amount };
  if (currency) {
    price.currency = currency;
    try {
      price.formatted = new Intl.NumberFormat('en', { style: 'currency', currency }).format(amount);
    } catch {
      // Not an ISO 4217 code: the amount and the code as the page gave them.
    }
  }
  return price;
}

function availabilityOf(value: unknown): ProductVariant['availability'] {
  const raw = text(value);
  if (!raw) return { inStock: false, text: 'Unknown' };
  const name = schemaName(raw);
  return { inStock: IN_STOCK.test(name), text: name };
}

/** The properties a `ProductGroup`'s variants differ by when it names none in `variesBy` (schema.org's list). */
const VARIANT_AXES = ['size', 'color', 'material', 'pattern', 'suggestedAge', 'suggestedGender'];

/** What sets a variant of a group apart: its `variesBy` properties (`size: '40'`, `color: 'Red'`), as text. */
function valuesOf(variant: JsonObject, group: JsonObject): Record<string, string> | undefined {
  const named = list(group.variesBy)
    .map((axis) => text(axis))
    .filter((axis): axis is string => axis !== undefined)
    .map(schemaName);
  const values: Record<string, string> = {};
  for (const axis of named.length ? named : VARIANT_AXES) {
    const value = text(variant[axis]);
    if (value !== undefined) values[axis] = value;
  }
  return Object.keys(values).length ? values : undefined;
}

/** An `AggregateOffer`'s highest price and number of offers (its lowest is the variant's `price`). */
function aggregateOf(offer: JsonObject, currency: unknown, low: ProductPrice | undefined): Partial<ProductVariant> {
  const high = priceOf(offer.highPrice, currency);
  const count = amountOf(offer.offerCount);
  return {
    ...(high && (!low || high.amount >= low.amount) ? { highPrice: high } : {}),
    ...(count !== undefined && Number.isInteger(count) && count >= 0 ? { offerCount: count } : {}),
  };
}

/**
 * A variant per offer (an `AggregateOffer` counts once, at its low price, with its high price and offer count), or
 * one without a price. A variant of a `ProductGroup` (`hasVariant`) is named by its own name and carries the values
 * it varies by.
 */
function variantsOf(product: JsonObject, base: string, group?: JsonObject): ProductVariant[] {
  const name = group ? text(product.name) : undefined;
  const values = group ? valuesOf(product, group) : undefined;
  const own = {
    ...(text(product.sku ?? product.mpn ?? product.gtin13 ?? product.gtin)
      ? { sku: text(product.sku ?? product.mpn ?? product.gtin13 ?? product.gtin)! }
      : {}),
  };
  const images = imagesOf(product.image, base);
  const variants: ProductVariant[] = [];
  for (const offer of list(product.offers).filter(isObject)) {
    const spec = list(offer.priceSpecification).filter(isObject);
    const current = spec.find((s) => !/ListPrice|Strikethrough/i.test(text(s.priceType) ?? '')) ?? spec[0];
    const list_ = spec.find((s) => /ListPrice|Strikethrough/i.test(text(s.priceType) ?? ''));
    const currency = offer.priceCurrency ?? current?.priceCurrency;
    const price = priceOf(offer.price ?? offer.lowPrice ?? current?.price, currency);
    const original = list_ ? priceOf(list_.price, list_.priceCurrency ?? currency) : undefined;
    const sku = text(offer.sku) ?? own.sku;
    const title = text(offer.name) ?? name;
    variants.push({
      ...(sku ? { sku } : {}),
      ...(title ? { title } : {}),
      ...(values ? { values } : {}),
      ...(price ? { price } : {}),
      ...aggregateOf(offer, currency, price),
      ...(original && price && original.amount > price.amount ? { sale: { originalPrice: original } } : {}),
      availability: availabilityOf(offer.availability),
      ...(images.length ? { images } : {}),
    });
  }
  for (const variant of list(product.hasVariant).filter(isObject)) variants.push(...variantsOf(variant, base, product));
  if (variants.length === 0)
    variants.push({
      ...own,
      ...(name ? { title: name } : {}),
      ...(values ? { values } : {}),
      availability: availabilityOf(undefined),
      ...(images.length ? { images } : {}),
    });
  return variants;
}

/** The OpenGraph and `product:` tags as a JSON-LD product, when they describe one. */
function openGraphProduct(meta: StructuredData['meta']): JsonObject | undefined {
  const one = (...keys: string[]) => keys.map((k) => meta.get(k)?.[0]).find((v) => v !== undefined);
  const amount = one('product:price:amount', 'og:price:amount', 'product:sale_price:amount');
  const type = one('og:type') ?? '';
  if (!/product/i.test(type) && amount === undefined) return undefined;
  const offer: JsonObject = {
    price: amount,
    priceCurrency: one('product:price:currency', 'og:price:currency'),
    availability: one('product:availability', 'og:availability'),
    sku: one('product:retailer_item_id'),
  };
  return {
    '@type': 'Product',
    name: one('og:title', 'twitter:title'),
    description: one('og:description', 'twitter:description'),
    url: one('og:url'),
    image: meta.get('og:image') ?? meta.get('og:image:url') ?? meta.get('twitter:image'),
    brand: one('product:brand', 'og:brand'),
    category: one('product:category'),
    ...(amount !== undefined || offer.availability !== undefined ? { offers: offer } : {}),
  };
}

/** OpenGraph availability words in schema.org's spelling. */
function normalizeOgAvailability(product: JsonObject): JsonObject {
  const offer = isObject(product.offers) ? product.offers : undefined;
  const raw = text(offer?.availability)
    ?.toLowerCase()
    .replace(/[\s_-]/g, '');
  if (!offer || !raw) return product;
  const names: Record<string, string> = {
    instock: 'InStock',
    oos: 'OutOfStock',
    outofstock: 'OutOfStock',
    preorder: 'PreOrder',
    backorder: 'BackOrder',
    pending: 'PreOrder',
    discontinued: 'Discontinued',
    available: 'InStock',
  };
  return { ...product, offers: { ...offer, availability: names[raw] ?? text(offer.availability) } };
}

/** The product a page declares, or undefined when its structured data describes none. */
export function extractProduct(html: string, pageUrl: string): ProductProfile | undefined {
  const data = readStructuredData(html);
  const og = openGraphProduct(data.meta);
  const sources = [
    findTyped(data.jsonLd, PRODUCT_TYPES),
    findTyped(data.microdata, PRODUCT_TYPES),
    og && normalizeOgAvailability(og),
  ].filter((s): s is JsonObject => s !== undefined);
  if (sources.length === 0) return undefined;
  const field = (key: string) => sources.map((s) => text(s[key])).find((v) => v !== undefined);
  const base = field('url') ? resolve(field('url')!, pageUrl) : pageUrl;
  const priced = sources.find((s) => variantsOf(s, base).some((v) => v.price)) ?? sources[0]!;
  const variants = variantsOf(priced, base);
  // Images named by another source fill variants that have none.
  const images = sources.map((s) => imagesOf(s.image, base)).find((found) => found.length > 0);
  if (images) for (const variant of variants) variant.images ??= images;
  const brand = field('brand');
  const category = field('category');
  const description = field('description');
  return {
    title: field('name') ?? data.title ?? '',
    ...(brand ? { brand } : {}),
    ...(category ? { category } : {}),
    url: base,
    ...(description ? { description } : {}),
    variants,
  };
}
