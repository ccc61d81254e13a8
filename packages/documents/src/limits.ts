/** The default caps of a conversion (each an option of `ConvertOptions`). */
export const DEFAULT_LIMITS = {
  maxZipEntries: 10_000,
  maxExpandedBytes: 200 * 1024 * 1024,
  maxExpansionRatio: 100,
  maxXmlElements: 1_000_000,
  maxTableCells: 200_000,
  maxSheetCells: 500_000,
  maxSlides: 1_000,
  maxSpineItems: 2_000,
  maxRows: 100_000,
  maxMarkdownChars: 50_000_000,
} as const;
