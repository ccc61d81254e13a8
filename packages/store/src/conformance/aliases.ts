import { describe, expect, it } from 'vitest';
import { createJob, useStores, type StoreFactory } from './harness.js';

/** `TaskStore.claimAlias`: what a crawl's pages say each key holds, the claim a crawl folds copies by. */
export function describeAliasConformance(factory: StoreFactory): void {
  describe('alias claims', () => {
    const open = useStores(factory);

    it('records the first claim on a key and answers the later ones with it', async () => {
      const store = await open();
      const id = await createJob(store);
      // A thread's page 2 names page 1 as its canonical before page 1 is fetched.
      expect(await store.tasks.claimAlias(id, 'page-1', { hash: 'h2', by: 'page-2' })).toBeUndefined();
      expect(await store.tasks.claimAlias(id, 'page-1', { hash: 'h3', by: 'page-3' })).toEqual({
        hash: 'h2',
        by: 'page-2',
      });
      // The claimer asking again (its page fetched again after a crash) is answered with its own claim.
      expect(await store.tasks.claimAlias(id, 'page-1', { hash: 'h2', by: 'page-2' })).toEqual({
        hash: 'h2',
        by: 'page-2',
      });
      // A key with spaces and an empty hash are kept as given.
      expect(await store.tasks.claimAlias(id, 'a b', { hash: '', by: 'c d' })).toBeUndefined();
      expect(await store.tasks.claimAlias(id, 'a b', { hash: 'x', by: 'e' })).toEqual({ hash: '', by: 'c d' });
    });

    it("lets the page at the key replace another page's claim with another hash, and nothing else", async () => {
      const store = await open();
      const id = await createJob(store);
      await store.tasks.claimAlias(id, 'page-1', { hash: 'h2', by: 'page-2' });
      // Page 1 itself holds other text: its claim replaces page 2's, and is answered with page 2's.
      expect(await store.tasks.claimAlias(id, 'page-1', { hash: 'h1', by: 'page-1' })).toEqual({
        hash: 'h2',
        by: 'page-2',
      });
      expect(await store.tasks.claimAlias(id, 'page-1', { hash: 'h9', by: 'copy' })).toEqual({
        hash: 'h1',
        by: 'page-1',
      });
      // A copy fetched first whose text is the page's: the page's own claim leaves it.
      await store.tasks.claimAlias(id, 'topic', { hash: 't', by: 'topic/7' });
      expect(await store.tasks.claimAlias(id, 'topic', { hash: 't', by: 'topic' })).toEqual({
        hash: 't',
        by: 'topic/7',
      });
      expect(await store.tasks.claimAlias(id, 'topic', { hash: 't', by: 'topic' })).toEqual({
        hash: 't',
        by: 'topic/7',
      });
      // The page's own claim, once recorded, is replaced by no one.
      expect(await store.tasks.claimAlias(id, 'home', { hash: 'a', by: 'home' })).toBeUndefined();
      expect(await store.tasks.claimAlias(id, 'home', { hash: 'b', by: 'home' })).toEqual({ hash: 'a', by: 'home' });
      expect(await store.tasks.claimAlias(id, 'home', { hash: 'c', by: 'x' })).toEqual({ hash: 'a', by: 'home' });
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
