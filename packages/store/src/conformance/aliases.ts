import { describe, expect, it } from 'vitest';
import { createJob, useStores, type StoreFactory } from './harness.js';

/** `TaskStore.claimAlias`: what a crawl's pages say each key holds, the claim a crawl folds copies by. */
export function describeAliasConformance(factory: StoreFactory): void {
  describe('alias claims', () => {
    const open = useStores(factory);

    /** Claims `[key, hash, by]` in turn on a new job, and answers what each was answered, as `hash by` (or `-`). */
    async function claimInTurn(claims: [string, string, string][]): Promise<string[]> {
      const store = await open();
      const id = await createJob(store);
      const answers: string[] = [];
      for (const [key, hash, by] of claims) {
        const found = await store.tasks.claimAlias(id, key, { hash, by });
        answers.push(found === undefined ? '-' : `${found.hash}|${found.by}`);
      }
      return answers;
    }

    it('records the first claim on a key and answers the later ones with it', async () => {
      const answers = await claimInTurn([
        // A thread's page 2 names page 1 as its canonical before page 1 is fetched; page 3 too.
        ['page-1', 'h2', 'page-2'],
        ['page-1', 'h3', 'page-3'],
        // The claimer asking again (its page fetched again after a crash) is answered with its own claim.
        ['page-1', 'h2', 'page-2'],
        // A key with spaces and an empty hash are kept as given.
        ['a b', '', 'c d'],
        ['a b', 'x', 'e'],
      ]);
      expect(answers).toEqual(['-', 'h2|page-2', 'h2|page-2', '-', '|c d']);
    });

    it("lets the page at the key replace another page's claim with another hash, and nothing else", async () => {
      const answers = await claimInTurn([
        // Page 1 itself holds other text than page 2, which named it first: its claim replaces page 2's.
        ['page-1', 'h2', 'page-2'],
        ['page-1', 'h1', 'page-1'],
        ['page-1', 'h9', 'copy'],
        // A copy fetched first whose text is the page's: the page's own claim leaves it.
        ['topic', 't', 'topic/7'],
        ['topic', 't', 'topic'],
        ['topic', 't', 'topic'],
        // The page's own claim, once recorded, is replaced by no one.
        ['home', 'a', 'home'],
        ['home', 'b', 'home'],
        ['home', 'c', 'x'],
      ]);
      expect(answers).toEqual(['-', 'h2|page-2', 'h1|page-1', '-', 't|topic/7', 't|topic/7', '-', 'a|home', 'a|home']);
    });

    it('records one of concurrent claims on a new key and answers the others with it', async () => {
      const store = await open();
      const id = await createJob(store);
      const claims = Array.from({ length: 12 }, (_, i) => ({ hash: `h${i}`, by: `p${i}` }));
      const answers = await Promise.all(claims.map((claim) => store.tasks.claimAlias(id, 'k', claim)));
      const first = claims[answers.findIndex((a) => a === undefined)]!;
      expect(answers.filter((a) => a === undefined)).toHaveLength(1);
      expect(answers.filter((a) => a !== undefined)).toEqual(Array.from({ length: 11 }, () => first));
    });

    it("keeps each job's claims apart, drops them with the job, and rejects an unknown job", async () => {
      const store = await open();
      const one = await createJob(store);
      const two = await createJob(store);
      await store.tasks.claimAlias(one, 'k', { hash: 'h', by: 'p' });
      expect(await store.tasks.claimAlias(two, 'k', { hash: 'g', by: 'q' })).toBeUndefined();
      await store.jobs.delete(one);
      await expect(store.tasks.claimAlias(one, 'k', { hash: 'h', by: 'p' })).rejects.toMatchObject({
        code: 'STORE_JOB_NOT_FOUND',
      });
      await store.jobs.create({ ...(await store.jobs.get(two))!, id: one }, []);
      expect(await store.tasks.claimAlias(one, 'k', { hash: 'h', by: 'p' })).toBeUndefined();
    });
  });
}
