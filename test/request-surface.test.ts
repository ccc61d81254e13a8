/**
 * Bad input at every front door of `serve`: for each route and each field of its body (read from the request schema,
 * so the probe follows it), wrong types, null, empty, out of range, long, deep and wrong-enum values (faults of the
 * whole request, the v1 routes and the parse upload: request-faults.test.ts). Each answer is a 4xx in the v2 error
 * shape, with a code of `ERROR_CODES` and a message naming the field; never a 500 or a hang.
 */
import { describe, expect, it } from 'vitest';

import { badValues, bodyWith, fieldsOf, problemOf, type Field } from './helpers/request-probe.ts';
import { sentenceOf, useRequestSurface } from './helpers/request-surface.ts';

const { send, undo, ROUTES, seen } = useRequestSurface(() => undefined);

function allFields(fields: Field[]): Field[] {
  return fields.flatMap((f) => [f, ...(f.fields ? allFields(f.fields) : [])]);
}

describe('every field of every v2 body', () => {
  for (const [name, route] of Object.entries(ROUTES)) {
    it(`${name}: a bad value of each field is a 4xx naming it`, async () => {
      const problems: string[] = [];
      const fields = allFields(fieldsOf(route.schema)).filter((f) => !['origin', 'integration'].includes(f.path[0]!));
      expect(fields.length).toBeGreaterThan(1);
      const path = typeof route.path === 'function' ? route.path() : route.path;
      for (const field of fields) {
        for (const bad of badValues(field)) {
          const answer = await send(route.method, path, bodyWith(route.base(), field.path, bad));
          await undo(route, answer);
          // A field of an object the good body leaves out may be refused for a sibling the object needs.
          const parentGiven = field.path.length === 1 || field.path[0]! in route.base();
          const names = parentGiven ? [field.path.at(-1)!] : field.path;
          const problem = problemOf(answer, names, bad.invalid);
          seen.push(`${name} ${field.path.join('.')} = ${bad.label}: ${answer.status} ${sentenceOf(answer)}`);
          if (problem) problems.push(`${name} ${field.path.join('.')} = ${bad.label}: ${problem}`);
        }
      }
      // An unknown key beside a good body.
      const unknown = await send(route.method, path, JSON.stringify({ ...route.base(), nosuchKey: 1 }));
      await undo(route, unknown);
      const problem = problemOf(unknown, ['nosuchKey'], true);
      if (problem) problems.push(`${name} unknown key: ${problem}`);
      expect(problems).toEqual([]);
    }, 300_000);
  }
});
