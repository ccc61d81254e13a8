/** A page's title and description as the search index keeps them, read from its metadata. */
export interface SearchHead {
  title: string;
  description: string;
}

function metadataText(value: unknown): string {
  return typeof value === 'string' ? value : Array.isArray(value) ? String(value[0] ?? '') : '';
}

/** The title and description the search index keeps of a page: its own, else its Open Graph ones. */
export function searchHead(metadata: Record<string, unknown>): SearchHead {
  return {
    title: metadataText(metadata['title']) || metadataText(metadata['ogTitle']),
    description: metadataText(metadata['description']) || metadataText(metadata['ogDescription']),
  };
}
