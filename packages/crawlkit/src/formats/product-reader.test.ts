import { describe, expect, it } from 'vitest';

import { extractProduct } from './product-reader.js';

const URL_ = 'https://shop.example/p/plane';

const page = (head: string, body = '') =>
  `<!doctype html><html><head><title>Page title</title>${head}</head><body>${body}</body></html>`;

describe('extractProduct from JSON-LD', () => {
  it('reads name, brand, price, currency, availability, SKU and images', () => {
    const ld = {
      '@context': 'https://schema.org',
      '@type': 'Product',
      name: 'No. 4 Smoothing Plane',
      brand: { '@type': 'Brand', name: 'Acme Tools' },
      sku: 'AC-4',
      category: 'Hand tools',
      description: 'A bench plane.',
      image: ['/img/plane.jpg', { '@type': 'ImageObject', url: 'https://cdn.example/plane-2.jpg', caption: 'Side' }],
      offers: {
        '@type': 'Offer',
        price: '129.50',
        priceCurrency: 'usd',
        availability: 'https://schema.org/InStock',
        priceSpecification: [
          { '@type': 'UnitPriceSpecification', priceType: 'https://schema.org/ListPrice', price: 150 },
        ],
      },
    };
    const product = extractProduct(page(`<script type="application/ld+json">${JSON.stringify(ld)}</script>`), URL_);
    expect(product).toEqual({
      title: 'No. 4 Smoothing Plane',
      brand: 'Acme Tools',
      category: 'Hand tools',
      url: URL_,
      description: 'A bench plane.',
      variants: [
        {
          sku: 'AC-4',
          price: { amount: 129.5, currency: 'USD', formatted: '$129.50' },
          sale: { originalPrice: { amount: 150, currency: 'USD', formatted: '$150.00' } },
          availability: { inStock: true, text: 'InStock' },
          images: [
            { url: 'https://shop.example/img/plane.jpg' },
            { url: 'https://cdn.example/plane-2.jpg', alt: 'Side' },
          ],
        },
      ],
    });
  });

  it('finds the product inside @graph and mainEntity, one variant per offer', () => {
    const ld = {
      '@graph': [
        { '@type': 'WebSite', name: 'Shop' },
        {
          '@type': 'ItemPage',
          mainEntity: {
            '@type': ['Product'],
            name: 'Chisel set',
            offers: [
              {
                '@type': 'Offer',
                sku: 'CS-3',
                name: '3 pieces',
                price: 40,
                priceCurrency: 'EUR',
                availability: 'OutOfStock',
              },
              {
                '@type': 'Offer',
                sku: 'CS-6',
                name: '6 pieces',
                price: 70,
                priceCurrency: 'EUR',
                availability: 'InStock',
              },
            ],
          },
        },
      ],
    };
    const product = extractProduct(page(`<script type="application/ld+json">${JSON.stringify(ld)}</script>`), URL_);
    expect(product?.title).toBe('Chisel set');
    expect(product?.variants.map((v) => [v.sku, v.title, v.price?.amount, v.availability.inStock])).toEqual([
      ['CS-3', '3 pieces', 40, false],
      ['CS-6', '6 pieces', 70, true],
    ]);
  });

  it('skips a broken block and takes the next', () => {
    const good = JSON.stringify({ '@type': 'Product', name: 'Mallet' });
    const product = extractProduct(
      page(`<script type="application/ld+json">{ nope</script><script type="application/ld+json">${good}</script>`),
      URL_,
    );
    expect(product?.title).toBe('Mallet');
    expect(product?.variants).toEqual([{ availability: { inStock: false, text: 'Unknown' } }]);
  });
});

describe('extractProduct from microdata', () => {
  it('reads itemprops, nested offers and brand, and values of meta, link and img', () => {
    const body = `
      <div itemscope itemtype="https://schema.org/Product">
        <h1 itemprop="name">Marking Gauge</h1>
        <img itemprop="image" src="/img/gauge.png" alt="">
        <div itemprop="brand" itemscope itemtype="https://schema.org/Brand"><span itemprop="name">Veritas</span></div>
        <meta itemprop="sku" content="MG-1">
        <div itemprop="offers" itemscope itemtype="https://schema.org/Offer">
          <span itemprop="priceCurrency" content="GBP">£</span><span itemprop="price" content="35.00">35.00</span>
          <link itemprop="availability" href="https://schema.org/LimitedAvailability">Few left
        </div>
      </div>`;
    const product = extractProduct(page('', body), URL_);
    expect(product).toMatchObject({
      title: 'Marking Gauge',
      brand: 'Veritas',
      variants: [
        {
          sku: 'MG-1',
          price: { amount: 35, currency: 'GBP' },
          availability: { inStock: true, text: 'LimitedAvailability' },
          images: [{ url: 'https://shop.example/img/gauge.png' }],
        },
      ],
    });
  });
});

describe('extractProduct from OpenGraph', () => {
  it('reads og and product: tags, and fills what JSON-LD lacks', () => {
    const head = `
      <meta property="og:type" content="product">
      <meta property="og:title" content="Block Plane">
      <meta property="og:image" content="https://cdn.example/block.jpg">
      <meta property="og:url" content="https://shop.example/p/block">
      <meta property="product:price:amount" content="89">
      <meta property="product:price:currency" content="USD">
      <meta property="product:availability" content="out of stock">
      <meta property="product:brand" content="Acme">`;
    const alone = extractProduct(page(head), URL_);
    expect(alone).toMatchObject({
      title: 'Block Plane',
      brand: 'Acme',
      url: 'https://shop.example/p/block',
      variants: [{ price: { amount: 89, currency: 'USD' }, availability: { inStock: false, text: 'OutOfStock' } }],
    });
    const ld = JSON.stringify({ '@type': 'Product', name: 'Block Plane (LD)', description: 'Small.' });
    const merged = extractProduct(page(`${head}<script type="application/ld+json">${ld}</script>`), URL_);
    expect(merged?.title).toBe('Block Plane (LD)');
    expect(merged?.brand).toBe('Acme');
    expect(merged?.description).toBe('Small.');
    expect(merged?.variants[0]?.price?.amount).toBe(89);
    expect(merged?.variants[0]?.images).toEqual([{ url: 'https://cdn.example/block.jpg' }]);
  });

  it('finds nothing on a page without product data', () => {
    expect(extractProduct(page('<meta property="og:type" content="article">', '<p>Hello</p>'), URL_)).toBeUndefined();
  });
});

describe('extractProduct prices written in a locale', () => {
  // A microdata price without `content` is the visible text, grouped and marked as the shop's locale writes it.
  it.each([
    ['1.299,00 €', 1299],
    ['$1,299', 1299],
    ['$1,299.00', 1299],
    ['1 299,00 €', 1299],
    ["CHF 1'299.50", 1299.5],
    ['19,99 €', 19.99],
    ['1.299.000 ₫', 1299000],
    ['12.50', 12.5],
    ['£89.5', 89.5],
    // cents drawn in `<sup>` (`price-cents.ts`, the markdown's rule): not $1999
    ['$19<sup>99</sup>', 19.99],
    ['19 €<sup>99</sup>', 19.99],
    ['1.299 €<sup>99</sup>', 1299.99],
    ['EUR 19<sup>99</sup>', 19.99],
    // a currency sign in `<sup>` (the markdown writes `$19.99` and `$9` too)
    ['<sup>$</sup>19<sup>99</sup>', 19.99],
    ['<sup>$</sup>9', 9],
  ])('reads %s as %d', (shown, amount) => {
    const body = `<div itemscope itemtype="https://schema.org/Product"><h1 itemprop="name">Mug</h1>
      <div itemprop="offers" itemscope itemtype="https://schema.org/Offer"><span itemprop="price">${shown}</span></div>
      </div>`;
    expect(extractProduct(page('', body), URL_)?.variants[0]?.price?.amount).toBe(amount);
  });
});

describe('extractProduct of a ProductGroup', () => {
  it('names each variant and carries the values it varies by', () => {
    const variant = (sku: string, size: string, color: string, price: string, availability: string) => ({
      '@type': 'Product',
      sku,
      name: `Trail Runner - ${size} / ${color}`,
      size,
      color: { '@type': 'Text', name: color },
      offers: { '@type': 'Offer', price, priceCurrency: 'USD', availability: `https://schema.org/${availability}` },
    });
    const ld = {
      '@type': 'ProductGroup',
      name: 'Trail Runner',
      variesBy: ['https://schema.org/size', 'color'],
      hasVariant: [
        variant('TR-40-R', '40', 'Red', '49.00', 'InStock'),
        variant('TR-41-B', '41', 'Blue', '52', 'SoldOut'),
      ],
    };
    const product = extractProduct(page(`<script type="application/ld+json">${JSON.stringify(ld)}</script>`), URL_);
    expect(product?.title).toBe('Trail Runner');
    expect(product?.variants.map((v) => [v.sku, v.title, v.values, v.price?.amount, v.availability.inStock])).toEqual([
      ['TR-40-R', 'Trail Runner - 40 / Red', { size: '40', color: 'Red' }, 49, true],
      ['TR-41-B', 'Trail Runner - 41 / Blue', { size: '41', color: 'Blue' }, 52, false],
    ]);
    // Without `variesBy`, the usual axes; a product's own offers stay unnamed as before.
    const { variesBy: _, ...unnamed } = ld;
    const again = extractProduct(page(`<script type="application/ld+json">${JSON.stringify(unnamed)}</script>`), URL_);
    expect(again?.variants[1]?.values).toEqual({ size: '41', color: 'Blue' });
  });
});

describe('extractProduct of an AggregateOffer', () => {
  // A marketplace's offers summed up: `price` is the lowest, as before; the highest and the count beside it, each in
  // a single offer's shape.
  const expected = {
    price: { amount: 129.99, currency: 'USD', formatted: '$129.99' },
    highPrice: { amount: 159, currency: 'USD', formatted: '$159.00' },
    offerCount: 12,
    availability: { inStock: false, text: 'Unknown' },
  };

  it('reads lowPrice, highPrice and offerCount from JSON-LD', () => {
    const ld = {
      '@context': 'https://schema.org',
      '@type': 'Product',
      name: 'X100 Camera',
      offers: { '@type': 'AggregateOffer', lowPrice: '129.99', highPrice: 159, offerCount: '12', priceCurrency: 'USD' },
    };
    const product = extractProduct(page(`<script type="application/ld+json">${JSON.stringify(ld)}</script>`), URL_);
    expect(product?.variants).toEqual([expected]);
  });

  it('reads them from microdata', () => {
    const body = `<div itemscope itemtype="https://schema.org/Product"><h1 itemprop="name">X100 Camera</h1>
      <div itemprop="offers" itemscope itemtype="https://schema.org/AggregateOffer">
        <meta itemprop="priceCurrency" content="USD">
        From <span itemprop="lowPrice">$129.99</span> to <span itemprop="highPrice" content="159.00">$159</span>
        (<span itemprop="offerCount">12</span> offers)
      </div></div>`;
    expect(extractProduct(page('', body), URL_)?.variants).toEqual([expected]);
  });

  it('leaves out a high price below the low one and a count that is no count', () => {
    const ld = {
      '@type': 'Product',
      name: 'X100 Camera',
      offers: { '@type': 'AggregateOffer', lowPrice: 129.99, highPrice: 99, offerCount: 'many', priceCurrency: 'USD' },
    };
    const variant = extractProduct(page(`<script type="application/ld+json">${JSON.stringify(ld)}</script>`), URL_)
      ?.variants[0];
    expect(variant).toMatchObject({ price: { amount: 129.99 } });
    expect(variant).not.toHaveProperty('highPrice');
    expect(variant).not.toHaveProperty('offerCount');
  });
});
